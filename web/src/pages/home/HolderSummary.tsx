import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AssetData } from '../../../../contract/wallet.ts';
import { formatAmount } from '../../lib/format.ts';
import { Pending } from '../../components/Pending.tsx';

/** What the summary shows: the Wallet's totals (getAsset) and yesterday's income (user info). */
export type HolderFigures = { asset?: AssetData | undefined; yesterday?: string | undefined };

/**
 * Home's card of the signed-in holder's own: what they own of each asset (the Wallet's figures,
 * never one asset counted in the other), both in USD, and yesterday's income; one tap opens the
 * Wallet. Without figures the same card with each pending, so Home keeps its size.
 */
export function HolderSummary({ asset, yesterday }: HolderFigures) {
  const { t } = useTranslation();
  const owned = (name: 'AIC' | 'USDT') => {
    const total = asset?.owned.find((o) => o.asset === name)?.total;
    return total === undefined ? <Pending sample="0.00" /> : formatAmount(total);
  };
  return (
    <section className="card holder-summary" aria-label={t('home.mine')} aria-busy={!asset}>
      <Link className="holder-summary__link" to="/wallet">
        <span className="card__label">{t('home.mine')}</span>
        <span className="holder-summary__big" data-testid={asset ? 'home-mine-aic' : undefined}>
          {owned('AIC')} <span className="figure__unit">AIC</span>
        </span>
        <span className="holder-summary__line" data-testid={asset ? 'home-mine-usdt' : undefined}>
          {owned('USDT')} <span className="figure__unit">USDT</span>
        </span>
        <span className="holder-summary__line" data-testid={asset ? 'home-mine-usd' : undefined}>
          {asset ? t('wallet.totalUsd', { amount: formatAmount(asset.totalUsd) }) : <Pending sample={t('wallet.totalUsd', { amount: '0.00' })} />}
        </span>
        <span className="holder-summary__line" data-testid={yesterday === undefined ? undefined : 'home-mine-yesterday'}>
          {yesterday === undefined ? (
            <Pending sample={t('home.mineYesterday', { amount: '0.00' })} />
          ) : (
            t('home.mineYesterday', { amount: formatAmount(yesterday) })
          )}
        </span>
      </Link>
    </section>
  );
}
