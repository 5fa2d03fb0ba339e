import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { formatAmount } from '../../lib/format.ts';
import { useClaim } from '../../api/earn.ts';
import { useConfirmedAction } from '../../api/useConfirmedAction.ts';
import { unitsOf } from '../../lib/amount.ts';
import { OfflineReason } from '../../components/OfflineReason.tsx';
import { useOffline } from '../../lib/connectivity.ts';

/**
 * The claimable reward (360-day static earnings) and its Claim action: on the centre from the
 * product info, on My from the user's earnings. Claim is disabled while nothing is claimable.
 */
export function RewardsCard({ rewards }: { rewards: string }) {
  const { t } = useTranslation();
  const { start, sending } = useConfirmedAction(useClaim());
  const offline = useOffline();
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
      <Button
        color="primary"
        size="middle"
        loading={sending}
        disabled={sending || offline || claimable <= 0n}
        onClick={() => void claim()}
      >
        {t('earn.rewards.claim')}
      </Button>
      <OfflineReason />
    </section>
  );
}
