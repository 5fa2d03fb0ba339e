import { useTranslation } from 'react-i18next';
import { formatAmount, formatDay, formatRate } from '../../lib/format.ts';
import type { ZeroLogData } from '../../../../contract/team.ts';
import { useZeroLog } from '../../api/team.ts';
import { Countdown } from '../../components/Countdown.tsx';
import { Figure } from '../../components/Figure.tsx';
import { PagedList } from '../../components/PagedList.tsx';
import { seenAt } from '../../lib/countdown.ts';
import { onServerClock } from '../../lib/serverClock.ts';

type Lockup = ZeroLogData['items'][number];

const DAY_MS = 86_400_000;

/** Seconds from `since` to the release: the settlement of the unlock day, at its end (UTC); 0 once due. */
const secondsUntil = (day: string, since: number): number =>
  Math.max(0, Math.floor((Date.parse(`${day}T00:00:00Z`) + DAY_MS - since) / 1000));

/** Released on a day, or the countdown to the unlock day (released by the next settlement). */
function Release({ lockup }: { lockup: Lockup }) {
  const { t } = useTranslation();
  if (lockup.releasedOn) {
    return <span className="lockup__released">{t('rebate.log.released', { day: formatDay(lockup.releasedOn) })}</span>;
  }
  const since = seenAt(lockup);
  // The release is at the server's day's end: counted on its clock, not the phone's.
  const seconds = secondsUntil(lockup.unlockDay, onServerClock(since));
  if (seconds === 0) return <span>{t('rebate.log.releasing')}</span>;
  return (
    <span>
      {t('rebate.log.countdown')} <Countdown seconds={seconds} since={since} />
    </span>
  );
}

function LockupItem({ lockup }: { lockup: Lockup }) {
  const { t } = useTranslation();
  const label = t('rebate.log.day', { day: formatDay(lockup.day) });
  return (
    <li className="invitee lockup" aria-label={label}>
      <div className="order__head">
        <h3 className="order__title">{label}</h3>
        <span className="record__amount record__amount--in">
          +{formatAmount(lockup.amount)} <span className="figure__unit">AIC</span>
        </span>
      </div>
      <dl className="figures figures--row order__figures">
        <Figure
          label={t('rebate.log.unlockable')}
          value={`${formatAmount(lockup.unlockable)} AIC (${formatRate(lockup.unlockPercent)})`}
        />
        <Figure label={t('rebate.log.unlockDay')} value={<time dateTime={lockup.unlockDay}>{formatDay(lockup.unlockDay)}</time>} />
      </dl>
      <p className="lockup__status">
        <Release lockup={lockup} />
      </p>
    </li>
  );
}

/** The network income's lock-ups, one a day, newest first, loaded as the list scrolls. */
export function ZeroLogList() {
  const { t } = useTranslation();
  const title = t('rebate.log.title');
  return (
    <section className="card records" aria-label={title}>
      <h2 className="card__title">{title}</h2>
      <PagedList
        query={useZeroLog()}
        label={title}
        failed={t('rebate.log.failed')}
        className="orders__list"
        render={(lockup) => <LockupItem key={lockup.day} lockup={lockup} />}
      />
    </section>
  );
}
