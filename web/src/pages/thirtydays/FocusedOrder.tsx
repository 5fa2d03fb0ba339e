import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { useOrder } from '../../api/earn.ts';
import { Loading } from '../../components/PagedList.tsx';
import { OrderCard } from '../center/orders/OrderCard.tsx';

/** An order's id as a link may carry it (`?order=`): digits only, else none. */
export const orderIdFrom = (value: string | null): string | null => (value && /^\d{1,19}$/.test(value) ? value : null);

/**
 * The order a link names, on top of the 30-day record: where a notice of a 30-day order (matured,
 * renewed: then the new order) or a renewal's link lands, with its switches and actions.
 */
export function FocusedOrder({ id }: { id: string }) {
  const { t } = useTranslation();
  const { data, isPending, isError, refetch } = useOrder(id);
  const title = t('earn.thirty.focus');
  return (
    <section className="card records" aria-label={title}>
      <h2 className="card__title">{title}</h2>
      {data ? (
        <ul className="orders__list orders__list--one" aria-label={title}>
          <OrderCard order={data} />
        </ul>
      ) : isPending ? (
        <Loading first />
      ) : (
        isError && (
          <div className="records__state">
            <p>{t('earn.orders.failed')}</p>
            <Button size="small" onClick={() => void refetch()}>
              {t('common.retry')}
            </Button>
          </div>
        )
      )}
    </section>
  );
}
