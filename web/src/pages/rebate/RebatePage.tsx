import { useQueryClient } from '@tanstack/react-query';
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queries.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import '../my/my.css';
import { NetworkIncomeCard } from './NetworkIncomeCard.tsx';
import { ZeroLogList } from './ZeroLogList.tsx';

/** Rebate: the network income from the team (claimable, locked, unlock tier) and its daily lock-ups. */
export function RebatePage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return (
    <main className="page page--my">
      <PageHeader title={t('title.rebate')} />
      <PullToRefresh onRefresh={() => queryClient.invalidateQueries({ queryKey: queryKeys.team })}>
        <section className="card">
          <p className="card__text">{t('rebate.intro')}</p>
        </section>
        <NetworkIncomeCard />
        <ZeroLogList />
      </PullToRefresh>
    </main>
  );
}
