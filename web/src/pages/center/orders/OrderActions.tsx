import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Order } from '../../../../../contract/earn.ts';
import { isActive, kindOf, renews } from '../../../../../contract/products.ts';
import { type OrderAction, useOrderAction } from '../../../api/earn.ts';
import { useConfirmedAction } from '../../../api/useConfirmedAction.ts';
import { RedeemSheet } from './RedeemSheet.tsx';
import { useRedeemQuestion } from './useRedeemQuestion.tsx';
import { OfflineReason } from '../../../components/OfflineReason.tsx';
import { useOffline } from '../../../lib/connectivity.ts';

/**
 * What an order offers now: current redeems any time, 30-day once redeemable and switches
 * auto-renew while it runs; 360-day reinvests.
 */
function actionsOf(order: Order): { redeem: OrderAction | null; reinvest: boolean; autoRenew: boolean } {
  const active = isActive(order.status);
  if (kindOf(order) === 'flexible') return { redeem: active ? 'redeemCurrent' : null, reinvest: false, autoRenew: false };
  if (kindOf(order) === 'fixed') {
    return { redeem: order.status === 'redeemable' ? 'redeemRegular' : null, reinvest: false, autoRenew: active && renews(order.product) };
  }
  return { redeem: null, reinvest: active, autoRenew: false };
}

/** An on/off switch of an order, labelled with the order. */
function OrderSwitch({ text, label, on, disabled, onClick }: { text: string; label: string; on: boolean; disabled: boolean; onClick: () => void }) {
  return (
    <button type="button" role="switch" className="toggle" aria-checked={on} aria-label={`${text} · ${label}`} disabled={disabled} onClick={onClick}>
      <span className="toggle__text">{text}</span>
      <span className="toggle__track" aria-hidden="true">
        <span className="toggle__thumb" />
      </span>
    </button>
  );
}

/**
 * Redeem, the reinvestment switch of a 360-day order and the auto-renew switch of a 30-day one:
 * each confirmed, then done once.
 */
export function OrderActions({ order, label }: { order: Order; label: string }) {
  const { t } = useTranslation();
  const { start, sending } = useConfirmedAction(useOrderAction());
  const redeemQuestion = useRedeemQuestion(order);
  // Each opening of the redeem form is a new one: a tap while the last one closes opens afresh.
  const [opening, setOpening] = useState(0);
  const offline = useOffline();
  // Offline nothing here can reach the server: the switches and Redeem are off, and say why.
  const off = sending || offline;
  const { redeem, reinvest, autoRenew } = actionsOf(order);

  const run = (action: OrderAction, question: string) =>
    start(() => ({ question, body: { action, orderId: order.id }, success: () => t('common.operationSuccess') }));

  // The confirm says what the redemption costs; a current order's opens its form first (all or part).
  const redeemWith = (action: OrderAction) =>
    action === 'redeemCurrent'
      ? setOpening((n) => n + 1)
      : start(async () => ({
          question: await redeemQuestion(),
          body: { action, orderId: order.id },
          success: () => t('common.operationSuccess'),
        }));

  if (!redeem && !reinvest && !autoRenew) return null;
  return (
    <div className="order__actions">
      {reinvest && (
        <OrderSwitch
          text={t('earn.orders.reinvest')}
          label={label}
          on={order.reinvest}
          disabled={off}
          onClick={() =>
            void (order.reinvest
              ? run('cancelRebuy', t('earn.orders.confirmCancelReinvest'))
              : run('oneRebuy', t('earn.orders.confirmReinvest')))
          }
        />
      )}
      {autoRenew && (
        <OrderSwitch
          text={t('earn.autoRenew')}
          label={label}
          on={order.autoRenew}
          disabled={off}
          onClick={() =>
            void (order.autoRenew
              ? run('autoRenewOff', t('earn.orders.confirmCancelAutoRenew'))
              : run('autoRenewOn', t('earn.orders.confirmAutoRenew')))
          }
        />
      )}
      {redeem && (
        <Button
          size="middle"
          color="primary"
          loading={sending}
          disabled={off}
          aria-label={`${t('earn.orders.redeem')} · ${label}`}
          onClick={() => void redeemWith(redeem)}
        >
          {t('earn.orders.redeem')}
        </Button>
      )}
      <OfflineReason />
      {opening > 0 && <RedeemSheet key={opening} order={order} label={label} onClosed={() => setOpening(0)} />}
    </div>
  );
}
