import ErrorBlock from 'antd-mobile/es/components/error-block';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { TRANSFER_TYPES, type TransferType } from '../../../../contract/wallet.ts';
import { type AuditEntry, useAuditLog } from '../../api/operator.ts';
import { formatDateTime } from '../../lib/format.ts';
import { typeLabelKey } from '../wallet/moves.ts';
import { QueryCard } from './QueryCard.tsx';

const ACTIONS = new Set([
  'approve',
  'reject',
  'fund',
  'fund_request',
  'fund_reject',
  'set_param',
  'settle',
  'clock_advance',
  'resolve_difference',
]);
const DETAILS = new Set([
  'type',
  'asset',
  'amount',
  'reason',
  'value',
  'effectiveDay',
  'days',
  'note',
  'account',
  'requestedBy',
]);
const ACCOUNTS = new Set(['treasury', 'supercomputing_pool']);

const isTransferType = (value: unknown): value is TransferType => TRANSFER_TYPES.includes(value as TransferType);

function describe(t: TFunction, key: string, value: unknown): string | null {
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return null;
  let text: string;
  if (key === 'type' && isTransferType(value)) text = t(typeLabelKey(value));
  else if (key === 'account' && typeof value === 'string' && ACCOUNTS.has(value)) text = t(`operator.account.${value}`);
  else if (Array.isArray(value)) text = value.map(String).join(', ');
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  return t('operator.audit.pair', { key: DETAILS.has(key) ? t(`operator.audit.detail.${key}`) : key, value: text });
}

const actionLabel = (t: TFunction, action: string) => (ACTIONS.has(action) ? t(`operator.audit.action.${action}`) : action);

function AuditItem({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const action = actionLabel(t, entry.action);
  // Targets the server words itself: a settlement of everything due, a clock moved by N days.
  const advanced = entry.action === 'clock_advance' ? /^(\d+) days$/.exec(entry.target ?? '') : null;
  let target = entry.target;
  if (entry.action === 'settle' && entry.target === 'due') target = t('operator.audit.due');
  else if (advanced) target = t('operator.audit.advanced', { days: advanced[1] });
  const details = Object.entries(entry.detail)
    .map(([key, value]) => describe(t, key, value))
    .filter((line): line is string => line !== null);
  return (
    <li className="record op-audit" aria-label={target ? `${action} · ${target}` : action}>
      <div className="record__row">
        <span className="record__type">{action}</span>
        {target && <code className="op-audit__target">{target}</code>}
      </div>
      {details.length > 0 && <p className="op-audit__detail">{details.join(' · ')}</p>}
      <div className="record__row">
        <span className="op-review__uid">{t('operator.audit.by', { uid: entry.operatorId })}</span>
        <time className="record__time" dateTime={entry.createdAt}>
          {formatDateTime(entry.createdAt)}
        </time>
      </div>
    </li>
  );
}

/** Every operator action, newest first: what, on what, by whom, when. */
export function AuditLog() {
  const { t } = useTranslation();
  const query = useAuditLog();
  return (
    <QueryCard title={t('operator.audit.title')} query={query}>
      {({ items }) =>
        items.length === 0 ? (
          <ErrorBlock status="empty" title={t('common.empty')} description="" className="records__empty" />
        ) : (
          <ul className="records__list" aria-label={t('operator.audit.title')}>
            {items.map((entry) => (
              <AuditItem key={entry.id} entry={entry} />
            ))}
          </ul>
        )
      }
    </QueryCard>
  );
}
