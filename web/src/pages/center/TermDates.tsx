import { useTranslation } from 'react-i18next';
import type { TermDates } from '../../../../contract/earn.ts';
import { kindOf, type Product } from '../../../../contract/products.ts';
import { Figure } from '../../components/Figure.tsx';
import { formatDay } from '../../lib/format.ts';

const Day = ({ day }: { day: string }) => <time dateTime={day}>{formatDay(day)}</time>;

/**
 * A term's value date, maturity date and the day its principal returns, as the server computed
 * them (server/earn/termDates.ts): figures of a `<dl>`. A 30-day order's principal is redeemable
 * to the wallet from that day; a 360-day order's comes back by itself.
 */
export function TermDateFigures({ product, dates }: { product: Product; dates: TermDates }) {
  const { t } = useTranslation();
  const returns = kindOf({ product }) === 'pool' ? 'earn.dates.principalBack' : 'earn.dates.principalRedeemable';
  return (
    <>
      <Figure label={t('earn.dates.value')} value={<Day day={dates.valueDay} />} />
      <Figure label={t('earn.dates.maturity')} value={<Day day={dates.maturesDay} />} />
      <Figure label={t(returns)} value={<Day day={dates.principalReturnDay} />} />
    </>
  );
}

/** The dates a term bought now would have, with what a UTC day means: the subscribe form's and its confirmation's. */
export function TermDatesCard({ product, dates }: { product: Product; dates: TermDates }) {
  const { t } = useTranslation();
  return (
    <div className="term-dates" data-testid={`term-dates-${product}`}>
      <dl className="figures">
        <TermDateFigures product={product} dates={dates} />
      </dl>
      <p className="field__note">{t('earn.dates.utcNote')}</p>
    </div>
  );
}

/** The quoted dates of `product` in the product info, if it has a term. */
export const quotedDates = (termDates: readonly { product: Product; dates: TermDates }[], product: Product): TermDates | null =>
  termDates.find((quote) => quote.product === product)?.dates ?? null;
