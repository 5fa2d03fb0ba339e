import Button from 'antd-mobile/es/components/button';
import Dialog from 'antd-mobile/es/components/dialog';
import Toast from 'antd-mobile/es/components/toast';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Order } from '../../../../../contract/earn.ts';
import { isActive, kindOf } from '../../../../../contract/products.ts';
import { formatAmount } from '../../../../../contract/format.ts';
import { TOAST_MS } from '../../../api/client.ts';
import { type OrderAction, useOrderAction } from '../../../api/earn.ts';

/** What an order offers now: current redeems any time, 30-day once redeemable; 360-day reinvests. */
function actionsOf(order: Order): { redeem: OrderAction | null; reinvest: boolean } {
  const active = isActive(order.status);
  if (kindOf(order) === 'flexible') return { redeem: active ? 'redeemCurrent' : null, reinvest: false };
  if (kindOf(order) === 'fixed') return { redeem: order.status === 'redeemable' ? 'redeemRegular' : null, reinvest: false };
  return { redeem: null, reinvest: active };
}

/** Redeem, and the reinvestment switch of a 360-day order: each confirmed, then done once. */
export function OrderActions({ order, label }: { order: Order; label: string }) {
  const { t } = useTranslation();
  const busy = useRef(false);
  const { send, sending } = useOrderAction();
  const { redeem, reinvest } = actionsOf(order);

  const run = async (action: OrderAction, question: string) => {
    if (busy.current) return;
    busy.current = true;
    try {
      const confirmed = await Dialog.confirm({
        'aria-label': t('wallet.confirmTitle'),
        title: t('wallet.confirmTitle'),
        content: question,
        confirmText: t('common.confirm'),
        cancelText: t('common.cancel'),
      });
      if (!confirmed) return;
      if (await send({ action, orderId: order.id })) {
        Toast.show({ content: t('common.operationSuccess'), icon: 'success', duration: TOAST_MS });
      }
    } finally {
      busy.current = false;
    }
  };

  if (!redeem && !reinvest) return null;
  return (
    <div className="order__actions">
      {reinvest && (
        <button
          type="button"
          role="switch"
          className="toggle"
          aria-checked={order.reinvest}
          aria-label={`${t('earn.orders.reinvest')} · ${label}`}
          disabled={sending}
          onClick={() =>
            void (order.reinvest
              ? run('cancelRebuy', t('earn.orders.confirmCancelReinvest'))
              : run('oneRebuy', t('earn.orders.confirmReinvest')))
          }
        >
          <span className="toggle__text">{t('earn.orders.reinvest')}</span>
          <span className="toggle__track" aria-hidden="true">
            <span className="toggle__thumb" />
          </span>
        </button>
      )}
      {redeem && (
        <Button
          size="middle"
          color="primary"
          loading={sending}
          disabled={sending}
          aria-label={`${t('earn.orders.redeem')} · ${label}`}
          onClick={() => void run(redeem, t('earn.orders.confirmRedeem', { amount: formatAmount(order.redeemable) }))}
        >
          {t('earn.orders.redeem')}
        </Button>
      )}
    </div>
  );
}
