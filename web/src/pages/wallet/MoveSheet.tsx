import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatDuration, formatEntered, formatFigure } from '../../lib/format.ts';
import { ASSETS, type Asset, type TransferType } from '../../../../contract/wallet.ts';
import { useConfirmedAction } from '../../api/useConfirmedAction.ts';
import { assetQuery, freshExchangeBalances, useAsset, useExchangeBalances, useTransferPage } from '../../api/wallet.ts';
import { checkAmount, checkOnFreshBalance, maxAmount, refusalOf, refusalStands, type ShownRefusal, unitsOf } from '../../lib/amount.ts';
import { ChoiceGroup } from '../../components/ChoiceGroup.tsx';
import { isInbound, sourceBalance, typeLabelKey } from './moves.ts';
import { useMove } from './useMove.ts';
import { AmountField } from '../../components/AmountField.tsx';
import { Pending } from '../../components/Pending.tsx';
import { Sheet, SheetButtons } from '../../components/Sheet.tsx';

const ASSET_OPTIONS = ASSETS.map((asset) => ({ value: asset, label: asset }));

/**
 * The bottom form of one wallet action: asset, amount with Max, checks before sending, a
 * confirmation naming the action, amount and asset, then the move. Mounted per opening.
 */
export function MoveSheet({ type, onClosed }: { type: TransferType; onClosed: () => void }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(true);
  const [asset, setAsset] = useState<Asset>('AIC');
  const [input, setInput] = useState('');
  const [error, setError] = useState<ShownRefusal | null>(null);
  const queryClient = useQueryClient();
  const wallet = useAsset();
  const atExchange = useExchangeBalances();
  const page = useTransferPage(true).data;
  const rules = page?.assets.find((a) => a.asset === asset);
  const review = page?.review;
  const { start, sending, busy } = useConfirmedAction(useMove(type));

  const inbound = isInbound(type);
  const title = t(typeLabelKey(type));
  const balance = sourceBalance(type, asset, wallet.data, atExchange.data);
  // The exchange's figure is asked apart from the wallet's: until it comes, its line is pending.
  const balancePending = inbound && balance === undefined && atExchange.isPending;
  const fee = rules && (unitsOf(rules.fee) ?? 0n) > 0n ? rules.fee : null;
  // Money leaving for the exchange has its own minimum (WITHDRAW_MINIMUM); the server refuses less with 129.
  const minimum = inbound ? rules?.minimum : (rules?.withdrawMinimum ?? rules?.minimum);
  const belowMessage = inbound ? undefined : 'err.belowTransferMinimum';
  // A refusal about the balance (or the minimum) goes when that figure changes: the amount may be fine now.
  if (error && !refusalStands(error, { balance, minimum })) setError(null);

  const close = () => {
    if (!busy()) setVisible(false);
  };

  const edit = (change: () => void) => {
    change();
    setError(null);
  };

  const submit = () =>
    start(async () => {
      // The balance on screen may predate a move elsewhere: refuse for it only once re-read.
      const checked = await checkOnFreshBalance(
        (figure) => checkAmount(input, figure, minimum, belowMessage),
        balance,
        async () =>
          inbound
            ? sourceBalance(type, asset, undefined, await queryClient.fetchQuery(freshExchangeBalances))
            : sourceBalance(type, asset, await queryClient.fetchQuery({ ...assetQuery, staleTime: 0 }), undefined),
      );
      if (!checked) return null;
      const { check, figures } = checked;
      if (!check.ok) {
        setError(refusalOf(check, { balance: figures, minimum }));
        return null;
      }
      setError(null);
      return {
        question: t('wallet.confirmMove', { action: title, amount: formatEntered(check.amount), asset }),
        body: { asset, amount: check.amount },
        success: () => (inbound ? t('common.operationSuccess') : t('wallet.submittedForReview')),
        done: () => setVisible(false),
      };
    });

  return (
    <Sheet
      visible={visible}
      onClose={close}
      afterClose={onClosed}
      position="bottom"
      bodyClassName="sheet"
      destroyOnClose
    >
      <section className="sheet__content" role="dialog" aria-modal="true" aria-label={title}>
        <header className="sheet__header">
          <h2 className="sheet__title">{title}</h2>
          <p className="sheet__hint" data-testid="move-hint">
            {t(`wallet.hints.${type}`)}
          </p>
        </header>
        <p className="field__label">{t('wallet.asset')}</p>
        <ChoiceGroup label={t('wallet.asset')} options={ASSET_OPTIONS} value={asset} onChange={(a) => edit(() => setAsset(a))} />
        <AmountField
          label={t('wallet.amount')}
          unit={asset}
          value={input}
          onChange={(value) => edit(() => setInput(value))}
          onSubmit={() => void submit()}
          onMax={() => edit(() => setInput(maxAmount(balance)))}
          error={error && t(error.message, { asset, ...error.values })}
        />
        <p className="field__note">
          {balancePending ? (
            <Pending sample={t('wallet.exchangeBalance', { amount: '0.00', asset })} />
          ) : (
            t(inbound ? 'wallet.exchangeBalance' : 'wallet.availableBalance', { amount: formatAmount(balance), asset })
          )}
        </p>
        {!inbound && rules?.withdrawMinimum && (
          <p className="field__note">{t('wallet.belowMinimum', { amount: formatFigure(rules.withdrawMinimum), asset })}</p>
        )}
        {!inbound && review && (
          <p className="field__note" data-testid="review-time">
            {review.medianMinutes === null
              ? t('wallet.reviewTimeNone', { days: review.days })
              : t('wallet.reviewTime', { time: formatDuration(review.medianMinutes), days: review.days })}
          </p>
        )}
        {fee && <p className="field__note">{t('wallet.fee', { amount: formatFigure(fee), asset })}</p>}
        <SheetButtons sending={sending} onCancel={close} onConfirm={() => void submit()} />
      </section>
    </Sheet>
  );
}
