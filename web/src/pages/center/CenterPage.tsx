import { useQueryClient } from '@tanstack/react-query';
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh';
import Skeleton from 'antd-mobile/es/components/skeleton';
import Tabs from 'antd-mobile/es/components/tabs';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { ProductInfoData } from '../../../../contract/earn.ts';
import { PRODUCTS, productOf } from '../../../../contract/products.ts';
import { useProductInfo } from '../../api/earn.ts';
import { queryKeys, useUserInfo } from '../../api/queries.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { DualView } from './DualView.tsx';
import { IncomeChart } from './IncomeChart.tsx';
import { MyOrders } from './orders/OrderList.tsx';
import { ProductPane } from './ProductPane.tsx';
import { RewardsCard } from './RewardsCard.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { Bell } from '../../components/Bell.tsx';

function UserStrip() {
  const { t } = useTranslation();
  const { data } = useUserInfo();
  return (
    <div className="user-strip">
      <p className="user-strip__name">{data ? `${data.name} · UID ${data.userId}` : t('common.loading')}</p>
      {/* My and the wallet are on the tab bar. */}
      <div className="user-strip__links">
        <Link className="user-strip__link" to="/income">
          {t('income.entry')}
        </Link>
      </div>
    </div>
  );
}

/**
 * The product info a pane needs, or its loading and failure states; while loading, `pending`:
 * placeholders of the final cards' size, so nothing below them moves when the info arrives.
 */
function WithInfo({ children, pending }: { children: (info: ProductInfoData) => ReactNode; pending: ReactNode }) {
  const { t } = useTranslation();
  const { data, isPending, isError, refetch } = useProductInfo();
  if (isPending) return pending;
  if (isError || !data) {
    return (
      <LoadFailed message={t('earn.loadFailed')} onRetry={() => void refetch()} />
    );
  }
  return children(data);
}

/** Skeleton cards of the product card's, the subscribe form's or the rewards card's height. */
function PendingCards({ sizes }: { sizes: ('product' | 'form' | 'rewards')[] }) {
  return sizes.map((size) => (
    <Skeleton.Paragraph key={size} lineCount={3} animated className={`card pending-card pending-card--${size}`} />
  ));
}

/**
 * The earn-coins centre: the three products (one tab each, with the subscribe form), the
 * claimable reward, the income of the last 30 days, and the records of participation.
 */
export function CenterPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<string>(PRODUCTS[0] as string);
  // A link may open a product's tab (My's reinvestment entry: ?tab=reinvest360).
  const [search] = useSearchParams();
  const wanted = PRODUCTS.find((product) => product === search.get('tab')) ?? null;
  useEffect(() => {
    if (wanted) setTab(wanted);
  }, [wanted]);
  // Products, orders, logs and balances (every loaded page) come back fresh.
  const refresh = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.earn }),
      queryClient.invalidateQueries({ queryKey: queryKeys.wallet }),
    ]);
  };
  return (
    <main className="page page--center">
      <PageHeader title={t('title.center')} right={<Bell />} />
      <UserStrip />
      <PullToRefresh onRefresh={refresh}>
        <Tabs activeKey={tab} onChange={setTab}>
          {PRODUCTS.map((product) => (
            <Tabs.Tab key={product} title={t(`product.${product}.name`)}>
              <WithInfo pending={<PendingCards sizes={['product', 'form']} />}>
                {(info) => <ProductPane product={product} info={info} />}
              </WithInfo>
              {productOf(product).kind === 'fixed' && (
                <Link className="text-link" to={`/thirtydays?product=${product}`}>
                  {t('earn.orders.fixedRecord', { days: productOf(product).termDays })} →
                </Link>
              )}
            </Tabs.Tab>
          ))}
        </Tabs>
        <DualView />
        <WithInfo pending={<PendingCards sizes={['rewards']} />}>
          {(info) => <RewardsCard rewards={info.rewards} />}
        </WithInfo>
        <IncomeChart />
        <MyOrders focus={wanted} />
      </PullToRefresh>
    </main>
  );
}
