import { useTranslation } from 'react-i18next';
import { formatAmount, formatFigure } from '../../lib/format.ts';
import { type Asset, ASSETS } from '../../../../contract/wallet.ts';
import { useAsset, useExchangeBalances } from '../../api/wallet.ts';
import { Figure } from '../../components/Figure.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { Pending } from '../../components/Pending.tsx';
import { unitsOf } from '../../lib/amount.ts';
import { LockedNote } from './LockedNote.tsx';
import { exchangeFigure } from './moves.ts';

/**
 * Total assets: what the holder owns of each asset, never one counted in the other (the AIC
 * total with the four lines it adds up to: the wallet, what is in earn products, what is
 * claimable (what the Claim buttons move), what is locked, and until when; then the USDT total), and both together in USD at the price in
 * force, labelled so; then each asset's available, under-review and exchange balances.
 * While they load, the same cards with the figures pending, so the page keeps its size. The
 * platform's figures come at once; the exchange balance is asked apart and fills in when the
 * exchange answers (getAsset carries it only when the server has a fresh copy).
 */
export function AssetSummary() {
  const { t } = useTranslation();
  const { data, isError, refetch } = useAsset();
  const atExchange = useExchangeBalances();
  if (isError) return <LoadFailed message={t('wallet.loadFailed')} onRetry={() => void refetch()} />;
  const amount = (value: string | undefined) => (data ? formatAmount(value) : <Pending sample="0.00" />);
  // Loading: a card per asset there will be, each figure pending.
  const balances = data?.balances ?? ASSETS.map((asset) => ({ asset, available: undefined, pending: undefined }));
  const exchangeLine = (asset: Asset) => {
    const figure = exchangeFigure(asset, data, atExchange.data);
    if (figure === null || (figure === undefined && atExchange.isError)) return t('wallet.exchangeUnknown');
    return figure === undefined ? <Pending sample="0.00" /> : formatAmount(figure);
  };
  return (
    <div aria-busy={!data}>
      <section className="card card--hero wallet-total" aria-label={t('wallet.totalAssets')}>
        <p className="card__label">{t('wallet.totalAssets')}</p>
        <p className="card__big" data-testid={data ? 'wallet-total' : undefined}>
          {amount(data?.totalAic)} <span className="figure__unit">AIC</span>
        </p>
        <p className="wallet-total__other" data-testid={data ? 'wallet-total-usdt' : undefined}>
          {amount(data?.owned.find((o) => o.asset === 'USDT')?.total)} <span className="figure__unit">USDT</span>
        </p>
        <p className="wallet-total__usd" data-testid={data ? 'wallet-total-usd' : undefined}>
          {data ? t('wallet.totalUsd', { amount: formatAmount(data.totalUsd) }) : <Pending sample={t('wallet.totalUsd', { amount: '0.00' })} />}
        </p>
        <dl className="figures wallet-total__lines">
          <Figure label={t('wallet.inWallet')} value={amount(data?.walletAic)} unit="AIC" />
          <Figure label={t('wallet.inProducts')} value={amount(data?.earnAic)} unit="AIC" />
          <Figure label={t('wallet.claimable')} value={amount(data?.claimableAic)} unit="AIC" />
          <Figure label={t('wallet.locked')} value={amount(data?.lockedAic)} unit="AIC" />
        </dl>
        {(unitsOf(data?.lockedAic) ?? 0n) > 0n && <LockedNote />}
        <p className="wallet-total__price">
          {data ? t('wallet.price', { price: formatFigure(data.price) }) : <Pending sample={t('wallet.price', { price: '0.00' })} />}
        </p>
      </section>
      <div className="wallet-balances">
        {balances.map((balance) => (
          <section key={balance.asset} className="card wallet-asset" aria-label={balance.asset}>
            <h2 className="card__title">{balance.asset}</h2>
            <dl className="figures">
              <Figure label={t('wallet.available')} value={amount(balance.available)} />
              <Figure label={t('wallet.pending')} value={amount(balance.pending)} />
              <Figure label={t('wallet.exchange')} value={exchangeLine(balance.asset)} />
            </dl>
          </section>
        ))}
      </div>
    </div>
  );
}
