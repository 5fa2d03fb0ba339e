import { useQuery } from '@tanstack/react-query';
import type { ActivityData } from '../../../contract/activity.ts';
import type { PositionsData } from '../../../contract/dual.ts';
import { PATHS } from '../../../contract/paths.ts';
import { apiGet } from './client.ts';
import { queryKeys } from './queries.ts';

/** Keys under the team and earn prefixes, so the invalidations after money moves reach them. */
export const activityKey = [...queryKeys.team, 'activity'] as const;
const positionsKey = [...queryKeys.earn, 'positions'] as const;

/** The recruitment activity: phase, countdown, figures inside it, unlock progress. */
export const useActivity = () => useQuery({ queryKey: activityKey, queryFn: () => apiGet<ActivityData>(PATHS.activity) });

/** The holder's positions and claimable amounts in AIC, with the AIC price (dual-currency view). */
export const usePositions = () =>
  useQuery({ queryKey: positionsKey, queryFn: () => apiGet<PositionsData>(PATHS.positions) });

/** The activity's window as a records filter: from its first day to the assessment's first day (UTC). */
export const activityRange = (data: Pick<ActivityData, 'activity' | 'assessment'>) => ({
  from: `${data.activity.firstDay}T00:00:00.000Z`,
  to: `${data.assessment.firstDay}T00:00:00.000Z`,
});
