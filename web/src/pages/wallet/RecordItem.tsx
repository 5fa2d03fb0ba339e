import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatDateTime } from '../../lib/format.ts';
import type { TransferRecord } from '../../../../contract/wallet.ts';
import { isInbound, reasonText, STATUS_COLORS, typeLabelKey } from './moves.ts';

/**
 * One wallet movement: type, amount, local time, status (and why it failed). A move that failed
 * moved nothing in the end: its amount carries no sign and no colour, and a withdrawal or
 * transfer out that failed (rejected, or sent back by the exchange) says the money was returned.
 */
export function RecordItem({ record }: { record: TransferRecord }) {
  const { t } = useTranslation();
  const inbound = isInbound(record.type);
  const failed = record.status === 'failure';
  const direction = failed ? 'none' : inbound ? 'in' : 'out';
  return (
    <li className="record">
      <div className="record__row">
        <span className="record__type">{t(typeLabelKey(record.type))}</span>
        <span className={`record__amount record__amount--${direction}`}>
          {{ in: '+', out: '-', none: '' }[direction]}
          {formatAmount(record.amount)} <span className="figure__unit">{record.asset}</span>
        </span>
      </div>
      <div className="record__row">
        <time className="record__time" dateTime={record.createdAt}>
          {formatDateTime(record.createdAt)}
        </time>
        <Tag className="record__status" color={STATUS_COLORS[record.status]} fill="outline">
          {failed && !inbound ? t('wallet.status.returned') : t(`wallet.status.${record.status}`)}
        </Tag>
      </div>
      {record.status === 'failure' && record.reason && (
        <p className="record__reason">{t('wallet.reason', { reason: reasonText(t, record.reason) })}</p>
      )}
    </li>
  );
}
