import { useTranslation } from 'react-i18next';
import { formatAmount } from '../../lib/format.ts';
import { useClaim } from '../../api/earn.ts';
import { useConfirmedAction } from '../../api/useConfirmedAction.ts';
import { unitsOf } from '../../lib/amount.ts';
import { ClaimButton } from '../../components/ClaimButton.tsx';

/**
 * The claimable reward (360-day static earnings) and its Claim action: on the centre from the
 * product info, on My from the user's earnings. Claim is disabled while nothing is claimable.
 */
export function RewardsCard({ rewards }: { rewards: string }) {
  const { t } = useTranslation();
  const { start, sending } = useConfirmedAction(useClaim());
  const claimable = unitsOf(rewards) ?? 0n;

  const claim = () =>
    start(() =>
      // The button is disabled at zero: nothing to claim is not a refusal to show.
      claimable <= 0n
        ? null
        : {
            question: t('earn.rewards.confirm', { amount: formatAmount(rewards) }),
            body: {},
            success: (answer) => t('earn.rewards.received', { amount: formatAmount(answer.claimed) }),
          },
    );

  return (
    <section className="card rewards" aria-label={t('earn.rewards.title')}>
      <div className="rewards__body">
        <p className="card__label">{t('earn.rewards.title')}</p>
        <p className="rewards__amount" data-testid="rewards">
          {formatAmount(rewards)} <span className="figure__unit">AIC</span>
        </p>
        <p className="field__note">{t('earn.rewards.hint')}</p>
      </div>
      <ClaimButton label={t('earn.rewards.claim')} claimable={claimable} sending={sending} onClaim={() => void claim()} />
    </section>
  );
}
