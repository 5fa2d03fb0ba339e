import { useTranslation } from 'react-i18next';
import { formatAmount, formatDay } from '../../lib/format.ts';
import { useRewardLog } from '../../api/earn.ts';
import { PagedList } from '../../components/PagedList.tsx';
import { HowComputed } from '../income/HowComputed.tsx';

/** Income lines of one kind (fixed: the daily accrual of 30-day orders), newest first, each explained. */
export function IncomeLines({ kind, label }: { kind: string; label: string }) {
  const { t } = useTranslation();
  return (
    <PagedList
      query={useRewardLog(kind)}
      label={label}
      failed={t('wallet.recordsFailed')}
      render={(line) => (
        <li key={`${line.day}|${line.orderId}|${line.kind}`} className="record">
          <div className="record__row">
            <span className="record__type">{t('earn.thirty.line', { id: line.orderId })}</span>
            <span className="record__amount record__amount--in">
              +{formatAmount(line.amount)} <span className="figure__unit">AIC</span>
            </span>
          </div>
          <div className="record__row">
            <time className="record__time" dateTime={line.day}>
              {formatDay(line.day)}
            </time>
            <HowComputed kind={line.kind} inputs={line.inputs} amount={line.amount} day={line.day} />
          </div>
        </li>
      )}
    />
  );
}
