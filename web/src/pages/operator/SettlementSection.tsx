import Button from 'antd-mobile/es/components/button';
import Input from 'antd-mobile/es/components/input';
import Toast from 'antd-mobile/es/components/toast';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SettleData } from '../../../../contract/operator.ts';
import { TOAST_MS } from '../../api/client.ts';
import { useAdvanceClock, useSettle } from '../../api/operator.ts';
import { DateField } from '../../components/DateField.tsx';
import { confirmAction } from '../../lib/confirm.ts';
import { addDays, dateOfDay, dayOfDate } from './days.ts';
import { SettleReports } from './SettleReports.tsx';

const MAX_ADVANCE = 400;

/** Settles a finished day (again: pays nothing twice) or everything due; the demo clock moves on. */
export function SettlementSection({ today, onServerNow }: { today: string; onServerNow: (now: string) => void }) {
  const { t } = useTranslation();
  const daysId = useId();
  const yesterday = addDays(today, -1);
  const [picked, setPicked] = useState<string | null>(null);
  const [daysInput, setDaysInput] = useState('1');
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<SettleData | null>(null);
  const busy = useRef(false);
  const settle = useSettle();
  const advance = useAdvanceClock();
  const sending = settle.sending || advance.sending;
  const day = picked && picked <= yesterday ? picked : yesterday;

  const run = async (question: string, action: () => Promise<SettleData | null>) => {
    if (busy.current) return;
    busy.current = true;
    try {
      if (!(await confirmAction(t, question))) return;
      const answer = await action();
      if (!answer) return;
      setResult(answer);
      onServerNow(answer.now);
      Toast.show({ content: t('common.operationSuccess'), icon: 'success', duration: TOAST_MS });
    } finally {
      busy.current = false;
    }
  };

  const advanceClock = () => {
    const days = /^\d{1,3}$/.test(daysInput.trim()) ? Number(daysInput.trim()) : 0;
    if (days < 1 || days > MAX_ADVANCE) {
      setError(t('operator.settle.daysInvalid', { max: MAX_ADVANCE }));
      return;
    }
    void run(t('operator.settle.confirmAdvance', { days }), () => advance.send({ days }));
  };

  return (
    <>
      <section className="card" aria-label={t('operator.settle.title')}>
        <h2 className="card__title">{t('operator.settle.title')}</h2>
        <p className="card__text">{t('operator.settle.hint')}</p>
        <div className="op-field">
          <DateField
            label={t('operator.settle.day')}
            value={dateOfDay(day)}
            max={dateOfDay(yesterday)}
            onChange={(date) => setPicked(dayOfDate(date))}
          />
        </div>
        <div className="op-buttons">
          <Button block size="large" fill="outline" disabled={sending} onClick={() => void run(t('operator.settle.confirmDay', { day }), () => settle.send({ day }))}>
            {t('operator.settle.runDay')}
          </Button>
          <Button block size="large" color="primary" disabled={sending} onClick={() => void run(t('operator.settle.confirmDue'), () => settle.send({}))}>
            {t('operator.settle.runDue')}
          </Button>
        </div>
      </section>
      <section className="card" aria-label={t('operator.settle.advance')}>
        <h2 className="card__title">{t('operator.settle.advance')}</h2>
        <p className="card__text">{t('operator.settle.advanceHint')}</p>
        <label className="field__label" htmlFor={daysId}>
          {t('operator.settle.days')}
        </label>
        <div className="amount-field">
          <Input
            id={daysId}
            className="amount-field__input"
            inputMode="numeric"
            autoComplete="off"
            value={daysInput}
            onChange={(value) => {
              setDaysInput(value);
              setError(null);
            }}
          />
        </div>
        {error && (
          <p className="field__error" role="alert">
            {error}
          </p>
        )}
        <Button className="form-submit" block size="large" color="warning" loading={advance.sending} disabled={sending} onClick={advanceClock}>
          {t('operator.settle.advanceSubmit')}
        </Button>
      </section>
      {result && <SettleReports result={result} />}
    </>
  );
}
