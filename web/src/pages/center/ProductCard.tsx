import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ProductInfoData } from '../../../../contract/earn.ts';
import type { Product } from '../../../../contract/products.ts';
import { formatAmount, formatDay, formatFigure, formatPercent, formatRate } from '../../lib/format.ts';
import { Figure } from '../../components/Figure.tsx';
import { Pending } from '../../components/Pending.tsx';
import { usePositions } from '../../api/activity.ts';
import { formatParamValue, paramLabelKey } from '../operator/params.ts';
import { productOf } from '../../../../contract/products.ts';

/**
 * One product: its daily rate and the equivalent APR (so it compares with other platforms),
 * its term and rule; for 360-day the most it pays and what it paid lately, today's coefficient,
 * the power formula, the pool, the holder's own power, and the lock and the risk in a sentence.
 */
export function ProductCard({ product, info }: { product: Product; info: ProductInfoData }) {
  const { t } = useTranslation();
  const pool = productOf(product).kind === 'pool';
  const card = info.products.find((p) => p.product === product);
  const rate = card?.dailyRate ? formatRate(card.dailyRate) : null;
  const name = t(`product.${product}.name`);
  // The holder's own power comes with their positions (the pass over their orders the wallet reads).
  const myPower = usePositions().data?.products.find((p) => p.product === product)?.power;
  return (
    <section className="card product-card" aria-label={name}>
      <h2 className="card__title">{name}</h2>
      <p className={rate === null ? 'product-card__rate product-card__rate--pool' : 'product-card__rate'} data-testid={`rate-${product}`}>
        {rate !== null && card?.apr ? t('earn.rates', { rate, apr: formatPercent(card.apr) }) : t('earn.poolShareCapped', { rate: formatRate(card?.maxDailyRate) })}
      </p>
      {pool && card && <PoolRates card={card} />}
      <dl className="figures">
        <Figure
          label={t('earn.term')}
          value={card?.termDays ? t('earn.termDays', { count: card.termDays }) : t('earn.termFlexible')}
        />
        {pool && (
          <>
            <Figure label={t('earn.coefficient')} value={formatFigure(info.coefficient)} />
            <Figure label={t('earn.poolOutputToday')} value={formatAmount(info.poolOutputToday)} unit="AIC" />
            <Figure label={t('earn.totalPower')} value={formatAmount(info.totalPower)} />
            <Figure label={t('earn.myPower')} value={myPower === undefined ? <Pending sample="0.00" /> : formatAmount(myPower)} />
          </>
        )}
      </dl>
      {pool && (
        <p className="product-card__formula">
          {t('earn.powerFormula', { multiplier: formatFigure(info.powerMultiplier), coefficient: formatFigure(info.coefficient) })}
          <br />
          <span className="product-card__note">{t('earn.coefficientNote', { base: formatFigure(info.coefficientBase), day: info.coefficientDay })}</span>
        </p>
      )}
      <p className="card__text">
        {t(`product.${product}.rule`, { multiplier: formatFigure(info.powerMultiplier), base: formatFigure(info.coefficientBase) })}
      </p>
      {pool && (
        <p className="card__text product-card__risk" data-testid={`risk-${product}`}>
          {t('earn.poolRisk', { days: card?.termDays ?? 0, rate: formatRate(card?.maxDailyRate) })}
        </p>
      )}
      {card?.upcoming && (
        <p className="product-card__upcoming" role="note">
          {t('rates.upcoming', { name: t(paramLabelKey(card.upcoming.name) ?? card.upcoming.name), value: formatParamValue(card.upcoming.name, card.upcoming.value), day: formatDay(card.upcoming.effectiveDay) })}
        </p>
      )}
      <Link className="text-link" to="/rates">
        {t('rates.entry')}
      </Link>
    </section>
  );
}

/**
 * The 360-day product's rates as a holder compares them: the most it pays (the cap, a day and
 * as an APR) and what it actually paid over the last settled days, both from the server.
 */
function PoolRates({ card }: { card: ProductInfoData['products'][number] }) {
  const { t } = useTranslation();
  const product = card.product;
  return (
    <p className="product-card__rates">
      <span data-testid={`max-rate-${product}`}>{t('earn.poolMaxRates', { rate: formatRate(card.maxDailyRate), apr: formatPercent(card.maxApr) })}</span>
      <br />
      <span data-testid={`recent-rate-${product}`}>
        {card.recent
          ? t('earn.poolRecent', { rate: formatRate(card.recent.dailyRate), apr: formatPercent(card.recent.apr), count: card.recent.days })
          : t('earn.poolRecentNone')}
      </span>
    </p>
  );
}
