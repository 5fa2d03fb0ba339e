import { useTranslation } from 'react-i18next';
import { formatAmount, formatRate } from '../../lib/format.ts';
import { formatUnits } from '../../../../contract/money.ts';
import type { ZeroProfitData } from '../../../../contract/team.ts';
import { unlockProgress } from '../../lib/unlock.ts';

const amount = (units: bigint) => formatAmount(formatUnits(units));

/**
 * The unlock tier: what the user holds in active orders against the tiers (5,000 AIC unlocks
 * 30%, 10,000 AIC 50% by default), as a bar with a mark per tier, and what the next tier needs.
 */
export function UnlockBar({ data }: { data: Pick<ZeroProfitData, 'held' | 'tiers' | 'unlockPercent' | 'lockupDays'> }) {
  const { t } = useTranslation();
  const progress = unlockProgress(data);
  const percent = formatRate(data.unlockPercent);
  const valueText = t('my.unlock.progress', { held: amount(progress.held), max: amount(progress.max), percent });
  return (
    <div className="unlock" role="group" aria-label={t('my.unlock.title')}>
      <div className="unlock__head">
        <h3 className="unlock__title">{t('my.unlock.title')}</h3>
        <span className="unlock__percent" data-testid="unlock-percent">
          {percent}
        </span>
      </div>
      <div
        className="unlock__bar"
        role="progressbar"
        aria-label={t('my.unlock.held')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress.filled}
        aria-valuetext={valueText}
      >
        <span className="unlock__fill" style={{ width: `${progress.filled}%` }} />
        {progress.marks.map((mark) => (
          <span key={mark.percent} className="unlock__mark" style={{ left: `${mark.at}%` }} />
        ))}
      </div>
      <ul className="unlock__tiers">
        {progress.marks.map((mark) => (
          <li
            key={mark.percent}
            className={progress.held >= mark.holding ? 'unlock__tier unlock__tier--reached' : 'unlock__tier'}
          >
            {t('my.unlock.tier', { percent: formatRate(mark.percent), holding: amount(mark.holding) })}
          </li>
        ))}
      </ul>
      <p className="field__note">{valueText}</p>
      <p className="field__note">
        {progress.next
          ? t('my.unlock.next', { amount: amount(progress.next.missing), percent: formatRate(progress.next.percent) })
          : t('my.unlock.top')}
      </p>
      <p className="field__note">{t('my.unlock.lockup', { days: data.lockupDays })}</p>
    </div>
  );
}
