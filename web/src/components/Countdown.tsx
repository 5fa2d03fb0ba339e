import { useTranslation } from 'react-i18next';
import { EMPTY } from '../lib/format.ts';
import { secondsLeft, splitCountdown } from '../lib/countdown.ts';
import { useNow } from '../lib/useNow.ts';

/** A live countdown (ticks each second) from `seconds` left when the data arrived at `since`. */
export function Countdown({ seconds, since }: { seconds: number | null; since: number }) {
  const { t } = useTranslation();
  const now = useNow();
  if (seconds === null) return <>{EMPTY}</>;
  const left = secondsLeft(seconds, since, now);
  const { days, time } = splitCountdown(left);
  return (
    <time className="countdown" dateTime={`PT${left}S`}>
      {days > 0 ? t('earn.countdown', { days, time }) : time}
    </time>
  );
}

/** The whole days of the same live countdown ("30 days"), so an order's remaining days and its countdown agree. */
export function CountdownDays({ seconds, since }: { seconds: number | null; since: number }) {
  const { t } = useTranslation();
  const now = useNow();
  if (seconds === null) return <>{EMPTY}</>;
  return <>{t('earn.termDays', { count: splitCountdown(secondsLeft(seconds, since, now)).days })}</>;
}
