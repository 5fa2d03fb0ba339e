import Button from 'antd-mobile/es/components/button';
import DatePicker from 'antd-mobile/es/components/date-picker';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { monthOfPicked, pickerDate, shiftMonth } from './month.ts';

/** The month shown, the months before and after it, and a picker; nothing after `latest`. */
export function MonthBar({
  month,
  latest,
  onChange,
}: {
  month: string | null;
  latest: string | null;
  onChange: (month: string) => void;
}) {
  const { t } = useTranslation();
  const [picking, setPicking] = useState(false);
  const atLatest = !month || !latest || month >= latest;
  return (
    <nav className="month-bar card" aria-label={t('statement.month')}>
      <Button
        className="month-bar__step"
        fill="none"
        aria-label={t('statement.previousMonth')}
        disabled={!month}
        onClick={() => {
          if (month) onChange(shiftMonth(month, -1));
        }}
      >
        ‹
      </Button>
      <button type="button" className="month-bar__current" aria-label={t('statement.pickMonth')} onClick={() => setPicking(true)}>
        {month ?? '--'}
      </button>
      <Button
        className="month-bar__step"
        fill="none"
        aria-label={t('statement.nextMonth')}
        disabled={atLatest}
        onClick={() => {
          if (month) onChange(shiftMonth(month, 1));
        }}
      >
        ›
      </Button>
      <DatePicker
        visible={picking}
        onClose={() => setPicking(false)}
        title={t('statement.month')}
        precision="month"
        value={month ? pickerDate(month) : null}
        {...(latest ? { max: pickerDate(latest) } : {})}
        min={new Date(2020, 0, 1)}
        confirmText={t('common.confirm')}
        cancelText={t('common.cancel')}
        onConfirm={(date) => onChange(monthOfPicked(date))}
      />
    </nav>
  );
}
