import { useTranslation } from 'react-i18next';
import { formatUnits } from '../../../../../contract/money.ts';
import { formatAmount, formatRate } from '../../../lib/format.ts';
import type { RedeemCost } from '../../../lib/redeemCost.ts';

/**
 * The redeem confirm's content: what comes back, and what the move costs before the holder
 * agrees (PRODUCT.md): the running cycle's income given up, and an unlock tier lost.
 */
export function RedeemQuestion({ amount, cost, cycleLeft }: { amount: string; cost: RedeemCost | null; cycleLeft: string | null }) {
  const { t } = useTranslation();
  const units = (value: bigint) => formatAmount(formatUnits(value));
  return (
    <div className="redeem-question">
      <p>{t('earn.orders.confirmRedeem', { amount: formatAmount(amount) })}</p>
      {cost?.cycleIncome != null && (
        <p className="redeem-question__cost" data-testid="redeem-cycle-cost">
          {t('earn.orders.redeemCycleCost', { income: units(cost.cycleIncome), time: cycleLeft ?? '' })}
        </p>
      )}
      {cost?.tierDrop && (
        <p className="redeem-question__cost" data-testid="redeem-tier-drop">
          {t('earn.orders.redeemTierDrop', {
            before: units(cost.tierDrop.heldBefore),
            after: units(cost.tierDrop.heldAfter),
            from: formatRate(cost.tierDrop.before),
            to: formatRate(cost.tierDrop.after),
          })}
        </p>
      )}
      {!cost && <p className="redeem-question__cost">{t('earn.orders.redeemCostUnknown')}</p>}
    </div>
  );
}
