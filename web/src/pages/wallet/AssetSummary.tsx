import { useTranslation } from 'react-i18next';
import { formatAmount, formatFigure } from '../../../../contract/format.ts';
import { useAsset } from '../../api/wallet.ts';
import { ASSETS } from '../../../../contract/wallet.ts';
import { Figure } from '../../components/Figure.tsx';
import { Pending } from '../../components/Pending.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';

/**
 * Total assets in AIC, then each asset's available, under-review and exchange balances. While
 * they load, the same cards with the figures pending, so the page keeps its size.
 */
export function AssetSummary() {
  const { t } = useTranslation();
  const { data, isPending, isError, refetch } = useAsset();
  if (isPending) return <AssetSummaryPending />;
  if (isError || !data) {
    return (
      <LoadFailed message={t('wallet.loadFailed')} onRetry={() => void refetch()} />
    );
  }
  return (
    <>
      <section className="card card--hero wallet-total" aria-label={t('wallet.totalAssets')}>
        <p className="card__label">{t('wallet.totalAssets')}</p>
        <p className="card__big" data-testid="wallet-total">
          {formatAmount(data.totalAic)} <span className="figure__unit">AIC</span>
        </p>
        <p className="wallet-total__price">{t('wallet.price', { price: formatFigure(data.price) })}</p>
      </section>
      <div className="wallet-balances">
        {data.balances.map((balance) => (
          <section key={balance.asset} className="card wallet-asset" aria-label={balance.asset}>
            <h2 className="card__title">{balance.asset}</h2>
            <dl className="figures">
              <Figure label={t('wallet.available')} value={formatAmount(balance.available)} />
              <Figure label={t('wallet.pending')} value={formatAmount(balance.pending)} />
              <Figure label={t('wallet.exchange')} value={formatAmount(balance.exchange)} />
            </dl>
          </section>
        ))}
      </div>
    </>
  );
}

function AssetSummaryPending() {
  const { t } = useTranslation();
  const amount = <Pending sample="0.00" />;
  return (
    <div aria-busy="true">
      <section className="card card--hero wallet-total" aria-label={t('wallet.totalAssets')}>
        <p className="card__label">{t('wallet.totalAssets')}</p>
        <p className="card__big">
          {amount} <span className="figure__unit">AIC</span>
        </p>
        <p className="wallet-total__price">
          <Pending sample={t('wallet.price', { price: '0.00' })} />
        </p>
      </section>
      <div className="wallet-balances">
        {ASSETS.map((asset) => (
          <section key={asset} className="card wallet-asset" aria-label={asset}>
            <h2 className="card__title">{asset}</h2>
            <dl className="figures">
              <Figure label={t('wallet.available')} value={amount} />
              <Figure label={t('wallet.pending')} value={amount} />
              <Figure label={t('wallet.exchange')} value={amount} />
            </dl>
          </section>
        ))}
      </div>
    </div>
  );
}
