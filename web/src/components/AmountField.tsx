import Input from 'antd-mobile/es/components/input';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * An amount entry: label, decimal keypad input with its unit, an optional Max, and the
 * validation message under it. The caller validates (exactly, with contract/money.ts).
 */
export function AmountField({
  label,
  unit,
  value,
  onChange,
  onSubmit,
  onMax,
  error,
}: {
  label: string;
  unit: string;
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  onMax?: () => void;
  error?: string | null;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  return (
    <>
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <div className="amount-field">
        <Input
          id={inputId}
          className="amount-field__input"
          inputMode="decimal"
          autoComplete="off"
          placeholder={t('wallet.amountPlaceholder')}
          value={value}
          onChange={onChange}
          onEnterPress={onSubmit}
        />
        <span className="amount-field__unit">{unit}</span>
        {onMax && (
          <button type="button" className="amount-field__max" onClick={onMax}>
            {t('wallet.max')}
          </button>
        )}
      </div>
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
