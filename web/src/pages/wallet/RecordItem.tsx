import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import { formatAmount } from '../../../../contract/format.ts';
import type { TransferRecord, TransferStatus } from '../../../../contract/wallet.ts';
import { isInbound, typeLabelKey } from './moves.ts';
import { formatDateTime } from '../../lib/time.ts';

const STATUS_COLORS: Record<TransferStatus, 'warning' | 'success' | 'danger' | 'primary'> = {
  requested: 'primary',
  under_review: 'warning',
  sending: 'primary',
  unknown: 'warning',
  success: 'success',
  failure: 'danger',
};

/** The platform writes the exchange's refusals as keys (`exchange.…`); an operator's reason is their own text. */
const reasonText = (t: (key: string) => string, reason: string) =>
  reason.startsWith('exchange.') ? t(`wallet.reasons.${reason}`) : reason;

/** One wallet movement: type, signed amount, local time, status (and why it failed). */
export function RecordItem({ record }: { record: TransferRecord }) {
  const { t } = useTranslation();
  const inbound = isInbound(record.type);
  return (
    <li className="record">
      <div className="record__row">
        <span className="record__type">{t(typeLabelKey(record.type))}</span>
        <span className={`record__amount record__amount--${inbound ? 'in' : 'out'}`}>
          {inbound ? '+' : '-'}
          {formatAmount(record.amount)} <span className="figure__unit">{record.asset}</span>
        </span>
      </div>
      <div className="record__row">
        <time className="record__time" dateTime={record.createdAt}>
          {formatDateTime(record.createdAt)}
        </time>
        <Tag className="record__status" color={STATUS_COLORS[record.status]} fill="outline">
          {t(`wallet.status.${record.status}`)}
        </Tag>
      </div>
      {record.status === 'failure' && record.reason && (
        <p className="record__reason">{t('wallet.reason', { reason: reasonText(t, record.reason) })}</p>
      )}
    </li>
  );
}
