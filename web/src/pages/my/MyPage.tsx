import { useQueryClient } from '@tanstack/react-query';
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh';
import Skeleton from 'antd-mobile/es/components/skeleton';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { queryKeys, useUserInfo } from '../../api/queries.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ActivityEntry } from '../activity/ActivityEntry.tsx';
import { ProofEntry } from '../proof/ProofEntry.tsx';
import { NetworkIncomeCard } from '../rebate/NetworkIncomeCard.tsx';
import { AccountLinks } from '../sessions/AccountLinks.tsx';
import { CodesCard } from './CodesCard.tsx';
import { EarningsCard } from './EarningsCard.tsx';
import { LogoutButton } from './LogoutButton.tsx';
import { ProfileCard } from './ProfileCard.tsx';
import { PushCard } from './PushCard.tsx';
import { ShareCard } from './ShareCard.tsx';
import { TeamSection } from './TeamSection.tsx';
import './my.css';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { Bell } from '../../components/Bell.tsx';

/** Reinvestment is switched on each 360-day order (with a confirmation): this leads there. */
function ReinvestEntry() {
  const { t } = useTranslation();
  return (
    <section className="card reinvest-entry" aria-label={t('my.reinvest.title')}>
      <h2 className="card__title">{t('my.reinvest.title')}</h2>
      <p className="card__text">{t('my.reinvest.text')}</p>
      <Link className="text-link" to="/center?tab=reinvest360">
        {t('my.reinvest.link')} →
      </Link>
    </section>
  );
}

/**
 * My: who the user is (level, effective), the invitation codes and the link to share, earnings
 * and their claims, network income, the way to reinvestment, notifications on this device (Web
 * Push, opt-in), the team with its records, and Log out at the bottom.
 */
export function MyPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: user, isPending, refetch } = useUserInfo();

  const refresh = async () => {
    await Promise.all(
      [queryKeys.userInfo, queryKeys.team, queryKeys.earn].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    );
  };

  let body: ReactNode;
  if (isPending) body = <Skeleton.Paragraph lineCount={8} animated className="card" />;
  else if (!user) {
    body = (
      <LoadFailed message={t('my.loadFailed')} onRetry={() => void refetch()} />
    );
  } else {
    body = (
      <>
        <ProfileCard user={user} />
        <CodesCard user={user} />
        <ShareCard code={user.inviteCode} />
        <EarningsCard user={user} />
        <NetworkIncomeCard details />
        <ReinvestEntry />
        <ProofEntry />
        <ActivityEntry />
        <AccountLinks />
        <PushCard />
        <TeamSection user={user} />
      </>
    );
  }

  return (
    <main className="page page--my">
      <PageHeader title={t('title.my')} right={<Bell />} />
      <PullToRefresh onRefresh={refresh}>
        {body}
        <LogoutButton />
      </PullToRefresh>
    </main>
  );
}
