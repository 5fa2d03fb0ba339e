import Button from 'antd-mobile/es/components/button';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProductInfoData } from '../../../../contract/earn.ts';
import { type Product, productOf, renews } from '../../../../contract/products.ts';
import { formatAmount, formatEntered, formatFigure } from '../../lib/format.ts';
import { productInfoQuery, useBuy } from '../../api/earn.ts';
import { useConfirmedAction } from '../../api/useConfirmedAction.ts';
import { checkOnFreshBalance, refusalOf, refusalStands, type ShownRefusal } from '../../lib/amount.ts';
import { BindStep } from './BindStep.tsx';
import { PoolConfirmEstimate, Preview } from './Preview.tsx';
import { quotedDates, TermDatesCard } from './TermDates.tsx';
import { checkSubscription, maxSubscription, subscriptionFigures } from './subscribe.ts';
import { AmountField } from '../../components/AmountField.tsx';
import { OfflineReason } from '../../components/OfflineReason.tsx';
import { useOffline } from '../../lib/connectivity.ts';

/**
 * The subscribe form of one product: quantity with Max, the limits (available, quota left,
 * minimum), a live income preview, a term's dates (also in the confirmation), for the 30-day
 * product the auto-renew switch (off unless the holder turns it on), the checks before sending,
 * a confirmation, then the order. Until an inviter is bound it shows the bind step instead.
 */
export function SubscribeForm({
  product,
  info,
  input,
  amount,
  onInput,
}: {
  product: Product;
  info: ProductInfoData;
  input: string;
  amount: bigint | null;
  onInput: (value: string) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [error, setError] = useState<ShownRefusal | null>(null);
  const renewable = renews(product);
  const pool = productOf(product).kind === 'pool';
  const [autoRenew, setAutoRenew] = useState(false);
  const { start, sending } = useConfirmedAction(useBuy());
  const offline = useOffline();
  const name = t(`product.${product}.name`);
  const dates = quotedDates(info.termDates, product);
  const freshDates = () =>
    queryClient
      .fetchQuery({ ...productInfoQuery, staleTime: 0 })
      .then((fresh) => quotedDates(fresh.termDates, product))
      .catch(() => dates);
  // A refusal about a figure (the balance, the quota) goes when that figure changes: a move
  // elsewhere may have made the amount fine.
  if (error && !refusalStands(error, subscriptionFigures(info))) setError(null);

  const edit = (value: string) => {
    onInput(value);
    setError(null);
  };

  const submit = () =>
    start(async () => {
      // The balance on screen may predate a recharge elsewhere: refuse for it only once re-read.
      const checked = await checkOnFreshBalance((limits) => checkSubscription(input, limits), info, () =>
        queryClient.fetchQuery({ ...productInfoQuery, staleTime: 0 }),
      );
      if (!checked) return null;
      const { check, figures } = checked;
      if (!check.ok) {
        setError(refusalOf(check, subscriptionFigures(figures)));
        return null;
      }
      setError(null);
      // The dates move at the UTC day boundary: the confirmation shows the server's as of now.
      const confirmDates = dates && (await freshDates());
      return {
        question: (
          <>
            {t(renewable && autoRenew ? 'earn.confirmBuyAutoRenew' : 'earn.confirmBuy', { amount: formatEntered(check.amount), product: name })}
            {confirmDates && <TermDatesCard product={product} dates={confirmDates} />}
            {pool && <PoolConfirmEstimate info={figures} product={product} amount={check.value} />}
          </>
        ),
        body: renewable ? { product, amount: check.amount, autoRenew } : { product, amount: check.amount },
        success: () => t('earn.subscribed'),
        done: () => onInput(''),
      };
    });

  return (
    <section className="card subscribe" aria-label={t('earn.subscribeTo', { product: name })}>
      <h2 className="card__title">{t('earn.subscribeTo', { product: name })}</h2>
      {!info.inviterBound ? (
        <BindStep />
      ) : (
        <>
          <AmountField
            label={t('earn.amount')}
            unit="AIC"
            value={input}
            onChange={edit}
            onSubmit={() => void submit()}
            onMax={() => edit(maxSubscription(info))}
            error={error && t(error.message, error.values ?? {})}
          />
          <p className="field__note">{t('wallet.availableBalance', { amount: formatAmount(info.available), asset: 'AIC' })}</p>
          <p className="field__note">{t('earn.quotaLeft', { amount: formatAmount(info.quotaLeft) })}</p>
          <p className="field__note">{t('earn.belowMinimum', { amount: formatFigure(info.minimum) })}</p>
          <Preview product={product} info={info} amount={amount} />
          {dates && <TermDatesCard product={product} dates={dates} />}
          {renewable && (
            <div className="subscribe__renew">
              <button
                type="button"
                role="switch"
                className="toggle"
                aria-checked={autoRenew}
                aria-describedby={`renew-hint-${product}`}
                onClick={() => setAutoRenew((on) => !on)}
              >
                <span className="toggle__text">{t('earn.autoRenew')}</span>
                <span className="toggle__track" aria-hidden="true">
                  <span className="toggle__thumb" />
                </span>
              </button>
              <p className="field__note" id={`renew-hint-${product}`}>
                {t('earn.autoRenewHint')}
              </p>
            </div>
          )}
          <Button className="form-submit" block size="large" color="primary" loading={sending} disabled={sending || offline} onClick={() => void submit()}>
            {t('earn.subscribe')}
          </Button>
          <OfflineReason />
        </>
      )}
    </section>
  );
}
