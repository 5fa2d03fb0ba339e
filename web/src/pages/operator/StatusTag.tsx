import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';

const COLORS: Record<string, 'success' | 'warning' | 'danger' | 'default'> = {
  done: 'success',
  already_done: 'default',
  running: 'warning',
  waiting_funds: 'danger',
};
const KNOWN = new Set(Object.keys(COLORS));

/** A settlement day's status: done, already done, running, or waiting for funds. */
export function StatusTag({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Tag className="op-status" color={COLORS[status] ?? 'default'} fill="outline">
      {KNOWN.has(status) ? t(`operator.status.${status}`) : status}
    </Tag>
  );
}

/** Which system accounts could not cover the day ("treasury,supercomputing_pool"), or none. */
export function ShortfallText({ shortfall }: { shortfall: string | null }) {
  const { t } = useTranslation();
  if (!shortfall) return <span className="op-shortfall op-shortfall--none">{t('operator.ledger.noShortfall')}</span>;
  const accounts = shortfall
    .split(',')
    .map((account) => (account === 'treasury' || account === 'supercomputing_pool' ? t(`operator.account.${account}`) : account));
  return <span className="op-shortfall">{t('operator.ledger.shortfall', { accounts: accounts.join(', ') })}</span>;
}
