import { useTranslation } from 'react-i18next';
import type { ProductInfoData } from '../../../../contract/earn.ts';
import type { Product } from '../../../../contract/products.ts';
import { formatAmount, formatRate } from '../../lib/format.ts';
import { formatUnits } from '../../../../contract/money.ts';
import { Figure } from '../../components/Figure.tsx';
import { dailyIncome, poolEstimate, termIncome } from './estimate.ts';
import { productOf } from '../../../../contract/products.ts';

const shown = (units: bigint) => formatAmount(formatUnits(units));

/**
 * What the entered amount would earn, live: per day for current; per day and over the term for
 * 30-day; for 360-day the computing power and the estimated share of today's output.
 */
export function Preview({ product, info, amount }: { product: Product; info: ProductInfoData; amount: bigint | null }) {
  const { t } = useTranslation();
  const card = info.products.find((p) => p.product === product);
  const value = amount ?? 0n;
  let figures: { label: string; value: string; unit?: string }[];
  let note: string | null = null;
  if (productOf(product).kind === 'pool') {
    const { power, share, maxRate } = poolEstimate(info, product, value);
    figures = [
      { label: t('earn.power'), value: shown(power) },
      { label: t('earn.dailyShare'), value: shown(share), unit: 'AIC' },
    ];
    note = t('earn.capNote', { rate: formatRate(maxRate) });
  } else {
    const rate = card?.dailyRate ?? '0';
    figures = [{ label: t('earn.perDay'), value: shown(dailyIncome(value, rate)), unit: 'AIC' }];
    if (card?.termDays) {
      figures.push({
        label: t('earn.overTerm', { count: card.termDays }),
        value: shown(termIncome(value, rate, card.termDays)),
        unit: 'AIC',
      });
    }
  }
  return (
    <section className="preview" aria-label={t('earn.preview')} aria-live="polite">
      <h3 className="preview__title">{t('earn.preview')}</h3>
      <dl className="figures">
        {figures.map((figure) => (
          <Figure key={figure.label} label={figure.label} value={figure.value} {...(figure.unit ? { unit: figure.unit } : {})} />
        ))}
      </dl>
      {note && <p className="preview__note">{note}</p>}
    </section>
  );
}

/**
 * The 360-day confirm's estimate: the power the amount gets and its share of today's output,
 * at most the cap, said as an estimate (PRODUCT.md: the estimate applies the same cap).
 */
export function PoolConfirmEstimate({ info, product, amount }: { info: ProductInfoData; product: Product; amount: bigint }) {
  const { t } = useTranslation();
  const { power, share, maxRate } = poolEstimate(info, product, amount);
  return (
    <p className="confirm__note" data-testid="confirm-pool-estimate">
      {t('earn.confirmPoolEstimate', { power: shown(power), share: shown(share), rate: formatRate(maxRate) })}
    </p>
  );
}
