import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Order } from '../../../../../contract/earn.ts';
import type { OrderStatus } from '../../../../../contract/products.ts';
import { formatAmount, formatDateTime } from '../../../lib/format.ts';
import { Countdown, CountdownDays } from '../../../components/Countdown.tsx';
import { Figure } from '../../../components/Figure.tsx';
import { seenAt } from '../../../lib/countdown.ts';
import { OrderActions } from './OrderActions.tsx';
import { TermDateFigures } from '../TermDates.tsx';
import { kindOf } from '../../../../../contract/products.ts';

const STATUS_COLORS: Record<OrderStatus, 'default' | 'primary' | 'success' | 'warning' | 'danger'> = {
  confirming: 'warning',
  in_progress: 'primary',
  redeemable: 'success',
  redeemed: 'default',
  redemption_successful: 'success',
  reinvested: 'primary',
  ended: 'default',
  renewed: 'default',
};

/**
 * One order: product and number, status, quantity, income, redeemable quantity, participation
 * time, remaining days (the whole days of the countdown beside them), a live countdown (to
 * redemption, or to the end of the current cycle), a term's value, maturity and return dates,
 * power for 360-day, the orders a 30-day renewal links (each opening in the 30-day record), and
 * what can be done with it.
 */
export function OrderCard({ order }: { order: Order }) {
  const { t } = useTranslation();
  const kind = kindOf(order);
  const label = t('earn.orders.order', { product: t(`product.${order.product}.name`), id: order.id });
  return (
    <li className="order" aria-label={label}>
      <div className="order__head">
        <h3 className="order__title">{label}</h3>
        <Tag className="order__status" color={STATUS_COLORS[order.status]} fill="outline">
          {t(`earn.orders.status.${order.status}`)}
        </Tag>
      </div>
      <dl className="figures figures--row order__figures">
        <Figure label={t('earn.orders.quantity')} value={formatAmount(order.quantity)} unit="AIC" />
        <Figure label={t('earn.orders.income')} value={formatAmount(order.income)} unit="AIC" />
        <Figure label={t('earn.orders.redeemable')} value={formatAmount(order.redeemable)} unit="AIC" />
        {kind === 'pool' && <Figure label={t('earn.power')} value={formatAmount(order.power)} />}
        {order.dates && (
          <Figure label={t('earn.orders.remainingDays')} value={<CountdownDays seconds={order.countdownSeconds} since={seenAt(order)} />} />
        )}
        <Figure
          label={t(kind === 'flexible' ? 'earn.orders.cycleEnds' : 'earn.orders.countdown')}
          value={<Countdown seconds={order.countdownSeconds} since={seenAt(order)} />}
        />
        <Figure
          label={t('earn.orders.participation')}
          value={<time dateTime={order.createdAt}>{formatDateTime(order.createdAt)}</time>}
        />
        {order.dates && <TermDateFigures product={order.product} dates={order.dates} />}
      </dl>
      {(order.renewedFrom || order.renewedTo) && (
        <div className="order__links">
          {order.renewedFrom && (
            <Link className="text-link" to={`/thirtydays?order=${order.renewedFrom}`}>
              {t('earn.orders.renewedFrom', { id: order.renewedFrom })}
            </Link>
          )}
          {order.renewedTo && (
            <Link className="text-link" to={`/thirtydays?order=${order.renewedTo}`}>
              {t('earn.orders.renewedTo', { id: order.renewedTo })}
            </Link>
          )}
        </div>
      )}
      <OrderActions order={order} label={label} />
    </li>
  );
}
