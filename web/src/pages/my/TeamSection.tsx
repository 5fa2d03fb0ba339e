import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatDay } from '../../lib/format.ts';
import type { UserInfoData } from '../../../../contract/team.ts';
import { activityRange, useActivity } from '../../api/activity.ts';
import { useInviteRecords } from '../../api/team.ts';
import { Figure } from '../../components/Figure.tsx';
import { PagedList } from '../../components/PagedList.tsx';
import { InviteRecordItem } from './InviteRecordItem.tsx';

/** Only the invitees who joined inside the recruitment activity, with its dates. */
function WindowSwitch({ on, onChange }: { on: boolean; onChange: (on: boolean) => void }) {
  const { t } = useTranslation();
  const { data } = useActivity();
  const label = t('activity.withinSwitch');
  return (
    <div className="records__window">
      <button type="button" role="switch" className="toggle" aria-checked={on} aria-label={label} disabled={!data} onClick={() => onChange(!on)}>
        <span className="toggle__text">{label}</span>
        <span className="toggle__track" aria-hidden="true">
          <span className="toggle__thumb" />
        </span>
      </button>
      {on && data && (
        <p className="field__note">{t('activity.window', { first: formatDay(data.activity.firstDay), last: formatDay(data.activity.lastDay) })}</p>
      )}
    </div>
  );
}

/** The team (as of the last settled day): quantity, size, direct invitees, then the invitation records. */
export function TeamSection({ user }: { user: UserInfoData }) {
  const { t } = useTranslation();
  const records = t('my.records.title');
  const [withinActivity, setWithinActivity] = useState(false);
  const { data: activity } = useActivity();
  const range = withinActivity && activity ? activityRange(activity) : {};
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
        <WindowSwitch on={withinActivity} onChange={setWithinActivity} />
        <PagedList
          query={useInviteRecords(range)}
          label={records}
          failed={t('my.records.failed')}
          className="orders__list"
          render={(record) => <InviteRecordItem key={record.userId} record={record} />}
        />
      </section>
    </>
  );
}
