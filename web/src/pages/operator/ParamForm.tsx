import Button from 'antd-mobile/es/components/button';
import Input from 'antd-mobile/es/components/input';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParamVersions, useScheduleParam } from '../../api/operator.ts';
import { useRateHistory } from '../../api/rates.ts';
import { useConfirmedAction } from '../../api/useConfirmedAction.ts';
import { DateField } from '../../components/DateField.tsx';
import { addDays, dateOfDay, dayOfDate } from './days.ts';
import { checkParamValue, formatParamValue, isDayParam, PARAM_NAMES, type ParamName, paramLabelKey, paramPlaceholder, paramStates } from './params.ts';

/** How far ahead a change may be scheduled from the picker. */
const HORIZON_DAYS = 730;

/** Schedules a new value of a parameter from today or a later day (never a settled one). */
export function ParamForm({ today }: { today: string }) {
  const { t } = useTranslation();
  const nameId = useId();
  const valueId = useId();
  const [name, setName] = useState<ParamName>(PARAM_NAMES[0] ?? 'price.aic_usd');
  const [value, setValue] = useState('');
  const [picked, setPicked] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { start, sending } = useConfirmedAction(useScheduleParam());
  // Earn terms change only with notice; the price follows the market from today.
  const notice = useRateHistory().data?.noticeDays ?? 0;
  const earliest = name === 'price.aic_usd' ? today : addDays(today, notice);
  // A day picked before the earliest allowed (the server's today moved on) becomes the earliest.
  const day = picked && picked >= earliest ? picked : earliest;
  const label = (n: string) => t(paramLabelKey(n) ?? n);
  // The empty field shows the parameter's own value in force (the list's query, shared).
  const versions = useParamVersions().data;
  const inForce = versions ? paramStates(versions.items, today, versions.defaults).find((p) => p.name === name)?.inForce : null;

  const submit = () =>
    start(() => {
      const problem = checkParamValue(name, value);
      if (problem) {
        setError(t(problem));
        return null;
      }
      setError(null);
      const text = value.trim();
      return {
        question: t('operator.params.confirm', { name: label(name), value: formatParamValue(name, text), day }),
        body: { name, value: text, effectiveDay: day },
        success: () => t('common.operationSuccess'),
        done: () => setValue(''),
      };
    });

  return (
    <section className="card" aria-label={t('operator.params.schedule')}>
      <h2 className="card__title">{t('operator.params.schedule')}</h2>
      <p className="card__text">{t('operator.params.rule')}</p>
      <p className="card__text">{t('operator.params.noticeRule', { days: notice })}</p>
      <label className="field__label" htmlFor={nameId}>
        {t('operator.params.name')}
      </label>
      <select
        id={nameId}
        className="op-select"
        value={name}
        onChange={(event) => {
          setName(event.target.value as ParamName);
          setError(null);
        }}
      >
        {PARAM_NAMES.map((n) => (
          <option key={n} value={n}>
            {label(n)}
          </option>
        ))}
      </select>
      <label className="field__label" htmlFor={valueId}>
        {t('operator.params.value')}
      </label>
      <div className="amount-field">
        <Input
          id={valueId}
          className="amount-field__input"
          inputMode={isDayParam(name) || name.startsWith('team.') ? 'text' : 'decimal'}
          autoComplete="off"
          placeholder={paramPlaceholder(name, inForce)}
          value={value}
          onChange={(v) => {
            setValue(v);
            setError(null);
          }}
        />
      </div>
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
      <div className="op-field">
        <DateField
          label={t('operator.params.effectiveDay')}
          value={dateOfDay(day)}
          min={dateOfDay(earliest)}
          max={dateOfDay(addDays(today, HORIZON_DAYS))}
          onChange={(date) => setPicked(dayOfDate(date))}
        />
      </div>
      <Button className="form-submit" block size="large" color="primary" loading={sending} disabled={sending} onClick={() => void submit()}>
        {t('operator.params.submit')}
      </Button>
    </section>
  );
}
