import { useEffect, useState } from 'react';
import { PRODUCTS, type Product } from '../../../../../contract/products.ts';
import { useTranslation } from 'react-i18next';
import { type OrderListName, type OrderQuery, useOrders } from '../../../api/earn.ts';
import { PagedList } from '../../../components/PagedList.tsx';
import { isFiltered, noFilter, type RangeFilter, rangeQuery } from '../../../lib/rangeFilter.ts';
import { FilterSheet } from '../../../components/FilterSheet.tsx';
import { OrderCard } from './OrderCard.tsx';

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

/**
 * Records of participation: every order, with the filter (order type, time range). A link may
 * ask for one product's orders (`focus`), e.g. My's reinvestment entry for the 360-day ones.
 */
export function MyOrders({ focus }: { focus?: Product | null }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<RangeFilter<Product>>(noFilter);
  useEffect(() => {
    if (focus) setFilter({ ...noFilter<Product>(), choice: focus });
  }, [focus]);
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
      <OrderList list="all" query={rangeQuery(filter, 'product')} label={title} />
      {filterOpening > 0 && (
        <FilterSheet
          key={filterOpening}
          choiceLabel={t('wallet.orderType')}
          options={PRODUCTS.map((product) => ({ value: product, label: t(`product.${product}.name`) }))}
          initial={filter}
          onApply={setFilter}
          onClosed={() => setFilterOpening(0)}
        />
      )}
    </section>
  );
}
