import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatDateTime } from '../../lib/format.ts';
import type { TransferRecord } from '../../../../contract/wallet.ts';
import { isInbound, reasonText, STATUS_COLORS, typeLabelKey } from './moves.ts';

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
