import { useTranslation } from 'react-i18next';
import type { ProductInfoData } from '../../../../contract/earn.ts';
import { formatAmount, formatCount, formatEntered, formatFigure } from '../../lib/format.ts';
import { formatUnits, UNIT } from '../../../../contract/money.ts';
import { MiniChart } from '../../components/MiniChart.tsx';
import { powerProjection } from './estimate.ts';

const DAYS = 30;
/** Without an amount entered, the projection shows what 100 AIC would get. */
const SAMPLE = 100n * UNIT;

const shown = (units: bigint) => formatAmount(formatUnits(units));

/**
 * The 360-day projection: the power X AIC would get if subscribed on each of the next days,
 * 5 × X × c × base^k from today's coefficient c (spec section 9; the base is configured).
 */
export function PowerProjection({ info, amount }: { info: ProductInfoData; amount: bigint | null }) {
  const { t } = useTranslation();
  const x = amount && amount > 0n ? amount : SAMPLE;
  const values = powerProjection(x, info.powerMultiplier, info.coefficient, DAYS, info.coefficientBase);
  const first = values[0];
  const last = values.at(-1);
  if (first === undefined || last === undefined) return null;
  const points = values.map((value, k) => ({
    label: k === 0 ? t('earn.projection.today') : t('earn.projection.day', { count: k }),
    value,
  }));
  return (
    <section className="card" aria-label={t('earn.projection.title', { amount: formatEntered(formatUnits(x)), days: DAYS })}>
      <h2 className="card__title">{t('earn.projection.title', { amount: formatEntered(formatUnits(x)), days: DAYS })}</h2>
      <MiniChart
        variant="line"
        title={t('earn.projection.title', { amount: formatEntered(formatUnits(x)), days: DAYS })}
        summary={t('earn.projection.summary', { today: shown(first), last: shown(last), days: DAYS, base: formatFigure(info.coefficientBase) })}
        points={points}
        formatValue={(v) => formatCount(v / UNIT)}
      />
    </section>
  );
}
