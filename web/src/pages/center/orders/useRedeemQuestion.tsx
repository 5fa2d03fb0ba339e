import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Order } from '../../../../../contract/earn.ts';
import { formatUnits } from '../../../../../contract/money.ts';
import { productInfoQuery } from '../../../api/earn.ts';
import { zeroProfitQuery } from '../../../api/team.ts';
import { secondsLeft, seenAt, splitCountdown } from '../../../lib/countdown.ts';
import { redeemCost } from '../../../lib/redeemCost.ts';
import { RedeemQuestion } from './RedeemQuestion.tsx';

/**
 * The redeem confirm's content for `order`, for all of it or a part (`amount`, units): it reads
 * the rate in force and the holder's unlock tiers first (from the cache when fresh) to say what
 * the move costs; when they cannot be read, the confirm says so.
 */
export function useRedeemQuestion(order: Order) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return async (amount?: bigint) => {
    const [info, network] = await Promise.all([
      queryClient.fetchQuery(productInfoQuery).catch(() => null),
      queryClient.fetchQuery(zeroProfitQuery).catch(() => null),
    ]);
    const rate = info?.products.find((p) => p.product === order.product)?.dailyRate ?? null;
    const cost = info && network ? redeemCost(order, rate, network, amount) : null;
    const left = order.countdownSeconds === null ? null : splitCountdown(secondsLeft(order.countdownSeconds, seenAt(order), Date.now()));
    const cycleLeft = left && (left.days > 0 ? t('earn.countdown', left) : left.time);
    return <RedeemQuestion amount={amount === undefined ? order.redeemable : formatUnits(amount)} cost={cost} cycleLeft={cycleLeft} />;
  };
}
