import { useTranslation } from 'react-i18next';
import { signOf } from '../../../../contract/format.ts';
import { formatAmount, formatDateTime } from '../../lib/format.ts';
import type { Movement } from '../../../../contract/statement.ts';

/** One movement: type and signed amount, time and account, the balance after and the reference. */
export function MovementItem({ movement }: { movement: Movement }) {
  const { t } = useTranslation();
  const inbound = signOf(movement.amount) > 0;
  const type = t(`statement.type.${movement.type}`);
  return (
    <li className="record movement" aria-label={type}>
      <div className="record__row">
        <span className="record__type">{type}</span>
        <span className={`record__amount record__amount--${inbound ? 'in' : 'out'}`}>
          {inbound ? '+' : ''}
          {formatAmount(movement.amount)} <span className="figure__unit">{movement.asset}</span>
        </span>
      </div>
      <div className="record__row">
        <time className="record__time" dateTime={movement.time}>
          {formatDateTime(movement.time)}
        </time>
        <span className="movement__account">
          {t(`statement.account.${movement.account}`, { defaultValue: movement.account })}
        </span>
      </div>
      <div className="record__row movement__meta">
        <span>{t('statement.balanceAfter', { amount: formatAmount(movement.balanceAfter) })}</span>
        {movement.reference && <span className="movement__ref">{movement.reference}</span>}
      </div>
    </li>
  );
}
