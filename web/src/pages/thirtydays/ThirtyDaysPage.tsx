import { useQueryClient } from '@tanstack/react-query';
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { OrderQuery } from '../../api/earn.ts';
import { queryKeys } from '../../api/queries.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { OrderList } from '../center/orders/OrderList.tsx';
import { FocusedOrder, orderIdFrom } from './FocusedOrder.tsx';
import { IncomeLines } from './IncomeLines.tsx';

const FIXED30: OrderQuery = { product: 'fixed30' };

/**
 * The 30-day financial record: the user's 30-day orders with countdowns, and their income; a
 * link naming one order (`?order=`) shows it first.
 */
export function ThirtyDaysPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const focus = orderIdFrom(search.get('order'));
  // A link naming an order comes from news about it (a notice, a renewal): what is kept of the
  // record may predate it, so it is read again.
  useEffect(() => {
    if (focus) void queryClient.invalidateQueries({ queryKey: queryKeys.earn });
  }, [focus, queryClient]);
  return (
    <main className="page">
      <PageHeader title={t('title.thirtydays')} />
      <PullToRefresh onRefresh={() => queryClient.invalidateQueries({ queryKey: queryKeys.earn })}>
        {focus && <FocusedOrder key={focus} id={focus} />}
        <section className="card">
          <p className="card__text">{t('product.fixed30.rule')}</p>
        </section>
        <section className="card records" aria-label={t('earn.thirty.orders')}>
          <h2 className="card__title">{t('earn.thirty.orders')}</h2>
          <OrderList list="fixed" query={FIXED30} label={t('earn.thirty.orders')} />
        </section>
        <section className="card records" aria-label={t('earn.thirty.income')}>
          <h2 className="card__title">{t('earn.thirty.income')}</h2>
          <IncomeLines kind="fixed" label={t('earn.thirty.income')} />
        </section>
      </PullToRefresh>
    </main>
  );
}
