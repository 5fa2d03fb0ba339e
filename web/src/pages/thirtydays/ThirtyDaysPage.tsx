import { useQueryClient } from '@tanstack/react-query';
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh';
import { useTranslation } from 'react-i18next';
import type { OrderQuery } from '../../api/earn.ts';
import { queryKeys } from '../../api/queries.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { OrderList } from '../center/orders/OrderList.tsx';
import { IncomeLines } from './IncomeLines.tsx';

const FIXED30: OrderQuery = { product: 'fixed30' };

/** The 30-day financial record: the user's 30-day orders with countdowns, and their income. */
export function ThirtyDaysPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return (
    <main className="page">
      <PageHeader title={t('title.thirtydays')} />
      <PullToRefresh onRefresh={() => queryClient.invalidateQueries({ queryKey: queryKeys.earn })}>
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
