import { useTranslation } from 'react-i18next';
import { formatAmount, formatDateTime } from '../../lib/format.ts';
import type { InviteRecordsData } from '../../../../contract/team.ts';
import { Figure } from '../../components/Figure.tsx';
import { EffectiveTag } from './ProfileCard.tsx';

export type InviteRecord = InviteRecordsData['items'][number];

/** One direct invitee: UID, level, subscription, the branch's team quantity and size, the rebate earned from it. */
export function InviteRecordItem({ record }: { record: InviteRecord }) {
  const { t } = useTranslation();
  const label = `${record.name} · UID ${record.userId}`;
  return (
    <li className="invitee" aria-label={label}>
      <div className="order__head">
        <h3 className="order__title">{label}</h3>
        <EffectiveTag effective={record.effective} />
      </div>
      <dl className="figures figures--row order__figures">
        <Figure label={t('my.records.level')} value={`V${record.level}`} />
        <Figure label={t('my.records.subscription')} value={formatAmount(record.subscription)} unit="AIC" />
        <Figure label={t('my.records.teamQuantity')} value={formatAmount(record.teamQuantity)} unit="AIC" />
        <Figure label={t('my.records.teamCount')} value={record.teamCount} />
        <Figure label={t('my.records.rebate')} value={formatAmount(record.rebate)} unit="AIC" />
        <Figure
          label={t('my.records.joined')}
          value={<time dateTime={record.joinedAt}>{formatDateTime(record.joinedAt)}</time>}
        />
      </dl>
    </li>
  );
}
