import { useTranslation } from 'react-i18next';
import type { PlatformFigures as Figures } from '../../../../contract/dashboard.ts';
import { formatAmount, formatDay, formatFigure, formatPercent, formatRate } from '../../lib/format.ts';
import { Figure } from '../../components/Figure.tsx';
import { Pending } from '../../components/Pending.tsx';

/**
 * The platform figures (spec section 1): the total network output the supercomputing pool has
 * paid, the pool and the treasury, and each stable-income (fixed-term) product, all from the
 * server. Without `figures` (still loading), the same card with each figure pending.
 */
export function PlatformFigures({ figures }: { figures?: Figures | undefined }) {
  const { t } = useTranslation();
  const title = t('figures.title');
  const amount = (value: string | undefined) => (figures ? formatAmount(value) : <Pending sample="0.00" />);
  const lastOutput = !figures ? (
    <Pending sample="0.00" />
  ) : figures.lastOutputDay ? (
    t('figures.lastOutputValue', { amount: formatAmount(figures.lastOutput), day: formatDay(figures.lastOutputDay) })
  ) : (
    formatFigure(null)
  );
  return (
    <section className="card" aria-label={title} aria-busy={!figures}>
      <h2 className="card__title">{title}</h2>
      <dl className="figures">
        <Figure label={t('figures.networkOutput')} value={amount(figures?.networkOutput)} unit="AIC" />
        <Figure label={t('figures.lastOutput')} value={lastOutput} />
        <Figure label={t('figures.supercomputingPool')} value={amount(figures?.supercomputingPool)} unit="AIC" />
        <Figure label={t('figures.treasury')} value={amount(figures?.treasury)} unit="AIC" />
      </dl>
      {figures ? figures.stable.map((stable) => <StableFigures key={stable.product} stable={stable} />) : <StableFigures />}
      <p className="field__note">{t('figures.note')}</p>
    </section>
  );
}

type Stable = Figures['stable'][number];

/** One stable-income product's figures; without `stable`, pending. */
function StableFigures({ stable }: { stable?: Stable }) {
  const { t } = useTranslation();
  return (
    <>
      <h3 className="card__subtitle">
        {stable ? t('figures.stable', { days: stable.termDays }) : <Pending sample={t('figures.stable', { days: 30 })} />}
      </h3>
      <dl className="figures">
        <Figure label={t('figures.stableSubscribed')} value={stable ? formatAmount(stable.subscribed) : <Pending sample="0.00" />} unit="AIC" />
        <Figure
          label={t('figures.stableRate')}
          value={
            stable ? (
              t('earn.rates', { rate: formatRate(stable.dailyRate), apr: formatPercent(stable.apr) })
            ) : (
              <Pending sample="0.00% / 0.00%" />
            )
          }
        />
      </dl>
    </>
  );
}
