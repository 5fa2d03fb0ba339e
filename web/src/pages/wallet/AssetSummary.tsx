import Skeleton from 'antd-mobile/es/components/skeleton';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatFigure } from '../../../../contract/format.ts';
import { useAsset } from '../../api/wallet.ts';
import { Figure } from '../../components/Figure.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';

/** Total assets in AIC, then each asset's available, under-review and exchange balances. */
export function AssetSummary() {
  const { t } = useTranslation();
  const { data, isPending, isError, refetch } = useAsset();
  if (isPending) return <Skeleton.Paragraph lineCount={6} animated className="card" />;
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
