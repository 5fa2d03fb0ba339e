import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type OrderListName, type OrderQuery, useOrders } from '../../../api/earn.ts';
import { PagedList } from '../../../components/PagedList.tsx';
import { isFiltered, NO_ORDER_FILTER, type OrderFilterValue, toOrderQuery } from './filter.ts';
import { OrderCard } from './OrderCard.tsx';
import { OrderFilter } from './OrderFilter.tsx';

/** Orders, newest first, loaded page by page as the list scrolls. */
export function OrderList({ list, query, label }: { list: OrderListName; query: OrderQuery; label: string }) {
  const { t } = useTranslation();
  return (
    <PagedList
      query={useOrders(list, query)}
      label={label}
      failed={t('earn.orders.failed')}
      className="orders__list"
      render={(order) => <OrderCard key={order.id} order={order} />}
    />
  );
}

/** Records of participation: every order, with the filter (order type, time range). */
export function MyOrders() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<OrderFilterValue>(NO_ORDER_FILTER);
  const [filterOpening, setFilterOpening] = useState(0); // 0: closed; each opening mounts afresh
  const title = t('earn.orders.title');
  return (
    <section className="card records" aria-label={title}>
      <header className="records__header">
        <h2 className="card__title">{title}</h2>
        <button
          type="button"
          className={isFiltered(filter) ? 'filter-button filter-button--active' : 'filter-button'}
          onClick={() => setFilterOpening((n) => n + 1)}
        >
          {t('wallet.filter')}
        </button>
      </header>
      <OrderList list="all" query={toOrderQuery(filter)} label={title} />
      {filterOpening > 0 && (
        <OrderFilter key={filterOpening} initial={filter} onApply={setFilter} onClosed={() => setFilterOpening(0)} />
      )}
    </section>
  );
}
