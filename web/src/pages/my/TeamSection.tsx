import { useTranslation } from 'react-i18next';
import { formatAmount } from '../../../../contract/format.ts';
import type { UserInfoData } from '../../../../contract/team.ts';
import { useInviteRecords } from '../../api/team.ts';
import { Figure } from '../../components/Figure.tsx';
import { PagedList } from '../../components/PagedList.tsx';
import { InviteRecordItem } from './InviteRecordItem.tsx';

/** The team (as of the last settled day): quantity, size, direct invitees, then the invitation records. */
export function TeamSection({ user }: { user: UserInfoData }) {
  const { t } = useTranslation();
  const records = t('my.records.title');
  return (
    <>
      <section className="card team" aria-label={t('my.team.title')}>
        <h2 className="card__title">{t('my.team.title')}</h2>
        <dl className="figures figures--row team__figures">
          <Figure label={t('my.team.quantity')} value={formatAmount(user.teamQuantity)} unit="AIC" />
          <Figure label={t('my.team.size')} value={user.teamCount} />
          <Figure label={t('my.team.direct')} value={user.directCount} />
        </dl>
        <p className="field__note">{t('my.team.compression')}</p>
      </section>
      <section className="card records" aria-label={records}>
        <h2 className="card__title">{records}</h2>
        <PagedList
          query={useInviteRecords()}
          label={records}
          failed={t('my.records.failed')}
          className="orders__list"
          render={(record) => <InviteRecordItem key={record.userId} record={record} />}
        />
      </section>
    </>
  );
}
