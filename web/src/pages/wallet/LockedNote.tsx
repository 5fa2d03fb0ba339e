import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useZeroProfit } from '../../api/team.ts';
import { unitsOf } from '../../lib/amount.ts';
import { formatAmount, formatDay, formatRate } from '../../lib/format.ts';

/**
 * What the Wallet's "Locked" line holds, said where it is shown: locked network income is not
 * claimable. The next lock-up's day and amount, and the share the holder's holding unlocks; the
 * rest stays locked. Asked only when something is locked.
 */
export function LockedNote() {
  const { t } = useTranslation();
  const { data } = useZeroProfit();
  if (!data) return null;
  const rest = t('wallet.lockedRest', { percent: formatRate(data.unlockPercent) });
  // A lock-up of a day the holding unlocked nothing of releases nothing: no date to give.
  const next = data.nextUnlockDay && (unitsOf(data.nextUnlockAmount) ?? 0n) > 0n ? data.nextUnlockDay : null;
  return (
    <p className="field__note wallet-total__locked" data-testid="wallet-locked-note">
      {next ? `${t('wallet.lockedUntil', { day: formatDay(next), amount: formatAmount(data.nextUnlockAmount) })} ` : ''}
      {rest}{' '}
      <Link className="text-link" to="/rebate">
        {t('wallet.lockedDetails')} →
      </Link>
    </p>
  );
}
