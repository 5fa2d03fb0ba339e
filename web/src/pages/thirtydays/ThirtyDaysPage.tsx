import { useQueryClient } from '@tanstack/react-query';
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { type Product, productOf, productsOfKind } from '../../../../contract/products.ts';
import { queryKeys } from '../../api/queries.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { OrderList } from '../center/orders/OrderList.tsx';
import { FocusedOrder, orderIdFrom } from './FocusedOrder.tsx';
import { IncomeLines } from './IncomeLines.tsx';

/** The fixed-term product a link names (`?product=`), else the first one. */
function recordProduct(named: string | null): Product | undefined {
  const fixed = productsOfKind('fixed');
  return fixed.find((product) => product === named) ?? fixed[0];
}

/**
 * The fixed-term financial record (the spec's 30-day record): the user's orders of one
 * fixed-term product with countdowns, and the fixed-term income; a link naming one order
 * (`?order=`) shows it first.
 */
export function ThirtyDaysPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const focus = orderIdFrom(search.get('order'));
  const product = recordProduct(search.get('product'));
  const days = (product && productOf(product).termDays) ?? 0;
  // A link naming an order comes from news about it (a notice, a renewal): what is kept of the
  // record may predate it, so it is read again.
  useEffect(() => {
    if (focus) void queryClient.invalidateQueries({ queryKey: queryKeys.earn });
  }, [focus, queryClient]);
  return (
    <main className="page">
      <PageHeader title={t('title.thirtydays', { days })} />
      <PullToRefresh onRefresh={() => queryClient.invalidateQueries({ queryKey: queryKeys.earn })}>
        {focus && <FocusedOrder key={focus} id={focus} />}
        <section className="card">
          <p className="card__text">{t(`product.${product}.rule`)}</p>
        </section>
        <section className="card records" aria-label={t('earn.thirty.orders', { days })}>
          <h2 className="card__title">{t('earn.thirty.orders', { days })}</h2>
          <OrderList list="fixed" query={{ product }} label={t('earn.thirty.orders', { days })} />
        </section>
        <section className="card records" aria-label={t('earn.thirty.income')}>
          <h2 className="card__title">{t('earn.thirty.income')}</h2>
          <IncomeLines kind="fixed" label={t('earn.thirty.income')} />
        </section>
      </PullToRefresh>
    </main>
  );
}
