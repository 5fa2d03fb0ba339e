import { useQueryClient } from '@tanstack/react-query';
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh';
import Skeleton from 'antd-mobile/es/components/skeleton';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ActivityData } from '../../../../contract/activity.ts';
import { formatAmount, formatDay } from '../../lib/format.ts';
import { activityKey, useActivity } from '../../api/activity.ts';
import { Countdown } from '../../components/Countdown.tsx';
import { Figure } from '../../components/Figure.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { seenAt } from '../../lib/countdown.ts';
import { UnlockBar } from '../rebate/UnlockBar.tsx';
import '../my/my.css';
import './activity.css';
import { LoadFailed } from '../../components/LoadFailed.tsx';

/** The phase, its dates and a live countdown to the end of the phase (or the start of the activity). */
function PhaseCard({ data }: { data: ActivityData }) {
  const { t } = useTranslation();
  const title = t('activity.phaseTitle');
  return (
    <section className={`card card--hero activity-phase activity-phase--${data.phase}`} aria-label={title}>
      <p className="card__label">{title}</p>
      <p className="card__big" data-testid="activity-phase">
        {t(`activity.phase.${data.phase}`)}
      </p>
      {data.secondsLeft !== null && (
        <p className="activity-phase__countdown">
          {t(data.phase === 'before' ? 'activity.startsIn' : 'activity.endsIn')}{' '}
          <span data-testid="activity-countdown">
            <Countdown seconds={data.secondsLeft} since={seenAt(data)} />
          </span>
        </p>
      )}
      <dl className="figures">
        <Figure
          label={t('activity.activityPeriod', { days: data.activity.days })}
          value={t('activity.range', { first: formatDay(data.activity.firstDay), last: formatDay(data.activity.lastDay) })}
        />
        <Figure
          label={t('activity.assessmentPeriod', { days: data.assessment.days })}
          value={t('activity.range', { first: formatDay(data.assessment.firstDay), last: formatDay(data.assessment.lastDay) })}
        />
      </dl>
      <p className="field__note">{t('activity.rule')}</p>
    </section>
  );
}

/** The holder's and the team's figures inside the activity window. */
function Performance({ data }: { data: ActivityData }) {
  const { t } = useTranslation();
  const own = t('activity.ownTitle');
  const team = t('activity.teamTitle');
  return (
    <>
      <section className="card" aria-label={own}>
        <h2 className="card__title">{own}</h2>
        <dl className="figures">
          <Figure label={t('activity.subscribed')} value={formatAmount(data.own.subscribed)} unit="AIC" />
          <Figure label={t('activity.directInvites')} value={data.own.directInvites} />
          <Figure label={t('activity.directEffective')} value={data.own.directEffective} />
        </dl>
      </section>
      <section className="card" aria-label={team}>
        <h2 className="card__title">{team}</h2>
        <dl className="figures">
          <Figure label={t('activity.newMembers')} value={data.team.newMembers} />
          <Figure label={t('activity.newEffective')} value={data.team.newEffective} />
          <Figure label={t('activity.quantityAdded')} value={formatAmount(data.team.quantityAdded)} unit="AIC" />
        </dl>
        <p className="field__note">
          {data.team.asOf ? t('activity.teamAsOf', { day: data.team.asOf }) : t('activity.teamNotYet')}
        </p>
        <Link className="text-link" to="/my">
          {t('activity.recordsLink')} →
        </Link>
      </section>
    </>
  );
}

/**
 * The recruitment activity (spec section 9): a network activity, then an assessment period,
 * with its phase and countdown, the holder's and team's figures inside it, and the progress
 * toward the network income unlock tiers.
 */
export function ActivityPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data, isPending, isError, refetch } = useActivity();

  let body: ReactNode;
  if (isPending) body = <Skeleton.Paragraph lineCount={8} animated className="card" />;
  else if (isError || !data) {
    body = (
      <LoadFailed message={t('activity.loadFailed')} onRetry={() => void refetch()} />
    );
  } else {
    const unlock = t('activity.unlockTitle');
    body = (
      <>
        <PhaseCard data={data} />
        <Performance data={data} />
        <section className="card" aria-label={unlock}>
          <h2 className="card__title">{unlock}</h2>
          <UnlockBar data={data.unlock} />
        </section>
      </>
    );
  }

  return (
    <main className="page page--my page--activity">
      <PageHeader title={t('activity.title')} />
      <PullToRefresh onRefresh={() => queryClient.invalidateQueries({ queryKey: activityKey })}>{body}</PullToRefresh>
    </main>
  );
}
