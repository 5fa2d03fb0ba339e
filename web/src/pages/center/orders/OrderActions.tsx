import Button from 'antd-mobile/es/components/button';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Order } from '../../../../../contract/earn.ts';
import { isActive, kindOf, renews } from '../../../../../contract/products.ts';
import { type OrderAction, productInfoQuery, useOrderAction } from '../../../api/earn.ts';
import { zeroProfitQuery } from '../../../api/team.ts';
import { useConfirmedAction } from '../../../api/useConfirmedAction.ts';
import { secondsLeft, seenAt, splitCountdown } from '../../../lib/countdown.ts';
import { redeemCost } from '../../../lib/redeemCost.ts';
import { RedeemQuestion } from './RedeemQuestion.tsx';
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
  const queryClient = useQueryClient();
  const offline = useOffline();
  // Offline nothing here can reach the server: the switches and Redeem are off, and say why.
  const off = sending || offline;
  const { redeem, reinvest, autoRenew } = actionsOf(order);

  const run = (action: OrderAction, question: string) =>
    start(() => ({ question, body: { action, orderId: order.id }, success: () => t('common.operationSuccess') }));

  // The confirm says what the redemption costs: it reads the rate in force and the holder's
  // unlock tiers first (from the cache when fresh); when they cannot be read, it says so.
  const redeemWith = (action: OrderAction) =>
    start(async () => {
      const [info, network] = await Promise.all([
        queryClient.fetchQuery(productInfoQuery).catch(() => null),
        queryClient.fetchQuery(zeroProfitQuery).catch(() => null),
      ]);
      const rate = info?.products.find((p) => p.product === order.product)?.dailyRate ?? null;
      const cost = info && network ? redeemCost(order, rate, network) : null;
      const left = order.countdownSeconds === null ? null : splitCountdown(secondsLeft(order.countdownSeconds, seenAt(order), Date.now()));
      const cycleLeft = left && (left.days > 0 ? t('earn.countdown', left) : left.time);
      return {
        question: <RedeemQuestion amount={order.redeemable} cost={cost} cycleLeft={cycleLeft} />,
        body: { action, orderId: order.id },
        success: () => t('common.operationSuccess'),
      };
    });

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
    </div>
  );
}
