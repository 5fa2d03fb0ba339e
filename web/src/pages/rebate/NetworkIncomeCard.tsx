import Button from 'antd-mobile/es/components/button';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EMPTY, formatAmount, formatDay } from '../../lib/format.ts';
import { useReceiveProfit, useZeroProfit } from '../../api/team.ts';
import { useConfirmedAction } from '../../api/useConfirmedAction.ts';
import { Figure } from '../../components/Figure.tsx';
import { ClaimButton } from '../../components/ClaimButton.tsx';
import { unitsOf } from '../../lib/amount.ts';
import { UnlockBar } from './UnlockBar.tsx';

/**
 * Network income (team rebates): what is claimable now with its Claim, what is locked, the
 * next release, and the unlock tier. On My it links to the rebate details.
 */
export function NetworkIncomeCard({ details = false }: { details?: boolean }) {
  const { t } = useTranslation();
  const { data, isPending, isError, refetch } = useZeroProfit();
  const { start, sending } = useConfirmedAction(useReceiveProfit());
  const title = t('my.network.title');

  if (isPending) return <Skeleton.Paragraph lineCount={6} animated className="card" />;
  if (isError || !data) {
    return (
      <section className="card card--empty" aria-label={title}>
        <p>{t('my.network.loadFailed')}</p>
        <Button size="small" onClick={() => void refetch()}>
          {t('common.retry')}
        </Button>
      </section>
    );
  }

  // Claim is disabled while nothing is claimable: nothing to claim is not a refusal to show.
  const claimable = unitsOf(data.claimable) ?? 0n;
  const claim = () =>
    start(() =>
      claimable <= 0n
        ? null
        : {
            question: t('my.network.confirm', { amount: formatAmount(data.claimable) }),
            body: {},
            success: (answer) => t('my.network.received', { amount: formatAmount(answer.claimed) }),
          },
    );

  const next = data.nextUnlockDay
    ? t('my.network.nextUnlockValue', { amount: formatAmount(data.nextUnlockAmount), day: formatDay(data.nextUnlockDay) })
    : EMPTY;
  return (
    <section className="card network" aria-label={title}>
      <h2 className="card__title">{title}</h2>
      <div className="rewards network__claim">
        <div className="rewards__body">
          <p className="card__label">{t('my.network.claimable')}</p>
          <p className="rewards__amount" data-testid="network-claimable">
            {formatAmount(data.claimable)} <span className="figure__unit">AIC</span>
          </p>
        </div>
        <ClaimButton label={t('my.network.claim')} claimable={claimable} sending={sending} onClaim={() => void claim()} />
      </div>
      <dl className="figures network__figures">
        <Figure label={t('my.network.locked')} value={formatAmount(data.locked)} unit="AIC" />
        <Figure label={t('my.network.pending')} value={formatAmount(data.pendingUnlock)} unit="AIC" />
        <Figure label={t('my.network.nextUnlock')} value={next} />
      </dl>
      <UnlockBar data={data} />
      <p className="field__note">{t('my.network.hint')}</p>
      {details && (
        <Link className="text-link" to="/rebate">
          {t('my.network.details')} →
        </Link>
      )}
    </section>
  );
}
