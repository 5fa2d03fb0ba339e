import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Order } from '../../../../../contract/earn.ts';
import { ERRORS } from '../../../../../contract/errors.ts';
import { formatUnits } from '../../../../../contract/money.ts';
import { checkRedemption } from '../../../../../contract/redemption.ts';
import { useOrderAction, useProductInfo } from '../../../api/earn.ts';
import { useConfirmedAction } from '../../../api/useConfirmedAction.ts';
import { AmountField } from '../../../components/AmountField.tsx';
import { Sheet, SheetButtons } from '../../../components/Sheet.tsx';
import { checkEntered, unitsOf } from '../../../lib/amount.ts';
import { formatAmount, formatFigure } from '../../../lib/format.ts';
import { useRedeemQuestion } from './useRedeemQuestion.tsx';

/**
 * Redeeming a current order, all or part (PRODUCT.md): the amount, the whole holding to begin
 * with (Max puts it back), checked by the rule the server applies (contract/redemption.ts), then
 * the confirm with what the part gives up. Mounted per opening.
 */
export function RedeemSheet({ order, label, onClosed }: { order: Order; label: string; onClosed: () => void }) {
  const { t } = useTranslation();
  const whole = formatUnits(unitsOf(order.redeemable) ?? 0n);
  const [visible, setVisible] = useState(true);
  const [input, setInput] = useState(whole);
  const [error, setError] = useState<string | null>(null);
  const { start, sending, busy } = useConfirmedAction(useOrderAction());
  const question = useRedeemQuestion(order);
  const minimum = useProductInfo().data?.minimum;
  const title = `${t('earn.orders.redeem')} · ${label}`;

  const close = () => {
    if (!busy()) setVisible(false);
  };
  const edit = (value: string) => {
    setInput(value);
    setError(null);
  };
  const submit = () =>
    start(async () => {
      const entered = checkEntered(input);
      if (!entered.ok) {
        setError(t(entered.message, entered.values ?? {}));
        return null;
      }
      const verdict = checkRedemption(unitsOf(order.redeemable) ?? 0n, entered.value, unitsOf(minimum) ?? 0n);
      if (!verdict.ok) {
        setError(t(ERRORS[verdict.refusal].message));
        return null;
      }
      return {
        question: await question(entered.value),
        body: { action: 'redeemCurrent' as const, orderId: order.id, amount: entered.amount },
        success: () => t('common.operationSuccess'),
        done: () => setVisible(false),
      };
    });

  return (
    <Sheet visible={visible} onClose={close} afterClose={onClosed} position="bottom" bodyClassName="sheet" destroyOnClose>
      <section className="sheet__content" role="dialog" aria-modal="true" aria-label={title}>
        <header className="sheet__header">
          <h2 className="sheet__title">{title}</h2>
        </header>
        <AmountField
          label={t('earn.orders.redeemAmount')}
          unit="AIC"
          value={input}
          onChange={edit}
          onSubmit={() => void submit()}
          onMax={() => edit(whole)}
          error={error}
        />
        {minimum && (
          <p className="field__note" data-testid="redeem-holds">
            {t('earn.orders.redeemHolds', { amount: formatAmount(order.redeemable), minimum: formatFigure(minimum) })}
          </p>
        )}
        <SheetButtons sending={sending} onCancel={close} onConfirm={() => void submit()} />
      </section>
    </Sheet>
  );
}
