import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatAmount } from '../../lib/format.ts';
import { productOf, productsOfKind } from '../../../../contract/products.ts';
import type { UserInfoData } from '../../../../contract/team.ts';
import { Figure } from '../../components/Figure.tsx';
import { RewardsCard } from '../center/RewardsCard.tsx';

/**
 * The user's earnings: today's, yesterday's and cumulative income, static (360-day output) and
 * dynamic (team rebates); then the claimable reward with its Claim, and the claimable
 * fixed-term amount (matured fixed-term orders, redeemed from their record).
 */
export function EarningsCard({ user }: { user: UserInfoData }) {
  const { t } = useTranslation();
  const e = user.earnings;
  return (
    <>
      <section className="card earnings" aria-label={t('my.earnings.title')}>
        <h2 className="card__title">{t('my.earnings.title')}</h2>
        <dl className="figures figures--row earnings__figures">
          <Figure label={t('my.earnings.today')} value={formatAmount(e.today)} unit="AIC" />
          <Figure label={t('my.earnings.yesterday')} value={formatAmount(e.yesterday)} unit="AIC" />
          <Figure label={t('my.earnings.cumulative')} value={formatAmount(e.cumulative)} unit="AIC" />
          <Figure label={t('my.earnings.static')} value={formatAmount(e.static)} unit="AIC" />
          <Figure label={t('my.earnings.dynamic')} value={formatAmount(e.dynamic)} unit="AIC" />
          <Figure label={t('my.earnings.claimableFixed')} value={formatAmount(e.claimableFixed)} unit="AIC" />
        </dl>
        <p className="field__note">{t('my.earnings.fixedHint')}</p>
        {productsOfKind('fixed').map((product) => (
          <Link key={product} className="text-link earnings__link" to={`/thirtydays?product=${product}`}>
            {t('earn.orders.fixedRecord', { days: productOf(product).termDays })} →
          </Link>
        ))}
      </section>
      <RewardsCard rewards={e.claimableReward} />
    </>
  );
}
