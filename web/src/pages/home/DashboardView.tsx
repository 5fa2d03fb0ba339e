import { useTranslation } from 'react-i18next';
import type { HomeData } from '../../../../contract/dashboard.ts';
import { signOf } from '../../../../contract/format.ts';
import { formatAmount, formatFigure, formatPercent } from '../../lib/format.ts';
import { Figure } from '../../components/Figure.tsx';
import { Pending } from '../../components/Pending.tsx';
import { ActivityEntry } from '../activity/ActivityEntry.tsx';
import { HolderSummary, type HolderFigures } from './HolderSummary.tsx';
import { PlatformFigures } from './PlatformFigures.tsx';

const AMOUNT = '0.00';

/**
 * Home, signed in: the platform's total and price (the spec's dashboard), the holder's own
 * summary, the pools and the platform's figures. Without
 * `data` (its code or its answer still on the way) the same cards with every figure pending, so
 * the page keeps its size when they arrive.
 */
export function DashboardView({ data, mine = {} }: { data?: HomeData | undefined; mine?: HolderFigures }) {
  const { t } = useTranslation();
  const amount = (value: string | null | undefined) => (data ? formatAmount(value) : <Pending sample={AMOUNT} />);
  const sign = data ? signOf(data.priceRate) : 0;
  const tone = sign > 0 ? 'up' : sign < 0 ? 'down' : undefined;
  const priceRate = !data
    ? <Pending sample="+0.00%" />
    : data.priceRate === null
      ? formatFigure(null)
      : `${tone === 'up' ? '+' : ''}${formatPercent(data.priceRate)}`;
  return (
    <div className="dashboard" aria-busy={!data}>
      <section className="card card--hero" aria-label={t('home.totalAmount')}>
        <p className="card__label">{t('home.totalAmount')}</p>
        <p className="card__big" data-testid={data ? 'total-amount' : undefined}>
          {amount(data?.totalAmount)} <span className="figure__unit">AIC</span>
        </p>
        <dl className="figures figures--row">
          <Figure label={t('home.price')} value={data ? `$${formatFigure(data.price)}` : <Pending sample="$0.00" />} />
          <Figure label={t('home.priceRate')} value={priceRate} {...(tone ? { tone } : {})} />
        </dl>
      </section>
      <HolderSummary {...mine} />
      <section className="card" aria-label={t('home.pools')}>
        <h2 className="card__title">{t('home.pools')}</h2>
        <dl className="figures">
          <Figure label={t('home.pool1')} value={amount(data?.pool1)} unit="AIC" />
          <Figure label={t('home.pool2')} value={amount(data?.pool2)} unit="USDT" />
          <Figure label={t('home.pool')} value={amount(data?.pool)} unit="AIC" />
        </dl>
      </section>
      <PlatformFigures figures={data?.figures} />
      <ActivityEntry />
    </div>
  );
}
