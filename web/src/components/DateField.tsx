import DatePicker from 'antd-mobile/es/components/date-picker';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../lib/format.ts';

/** A day chosen with antd-mobile's DatePicker, shown on a large button. */
export function DateField({
  label,
  value,
  min,
  max,
  onChange,
}: {
  label: string;
  value: Date | null;
  min?: Date | undefined;
  max: Date;
  onChange: (value: Date) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="date-field" onClick={() => setOpen(true)}>
        <span className="date-field__label">{label}</span>
        <span className={value ? 'date-field__value' : 'date-field__value date-field__value--empty'}>
          {value ? formatDate(value) : t('wallet.selectDate')}
        </span>
      </button>
      <DatePicker
        visible={open}
        onClose={() => setOpen(false)}
        title={label}
        precision="day"
        value={value}
        {...(min ? { min } : {})}
        max={max}
        confirmText={t('common.confirm')}
        cancelText={t('common.cancel')}
        onConfirm={onChange}
      />
    </>
  );
}
