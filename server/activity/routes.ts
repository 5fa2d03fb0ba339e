import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ActivityData } from '../../contract/activity.ts';
import { formatUnits } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { userIdOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { answers, ok } from '../http/schemas.ts';
import { utcDay } from '../platform/clock.ts';
import { zeroProfit } from '../team/repository.ts';
import { teamRulesInForce } from '../team/rules.ts';
import { period, phaseAt, recruitmentWindow } from './phase.ts';
import { windowPerformance } from './repository.ts';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The recruitment activity: its phase, the holder's and the team's figures in it, the unlock progress. */
export const activityRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const config = ctx.config.recruitment;
  const window = recruitmentWindow(config);
  app.get(
    PATHS.activity,
    {
      schema: {
        tags: ['team'],
        summary: 'Recruitment activity: phase, performance inside it, unlock progress',
        security: [{ bearer: [] }],
        response: answers(ActivityData),
      },
    },
    async (request) => {
      const userId = userIdOf(request);
      const now = ctx.clock.now();
      const phase = phaseAt(window, now);
      const [done, network] = await Promise.all([
        windowPerformance(ctx.db, userId, window.activityStart, window.activityEnd),
        zeroProfit(ctx.db, await teamRulesInForce(ctx, utcDay(now)), userId),
      ]);
      return ok({
        phase: phase.phase,
        phaseStartsAt: iso(phase.startsAt),
        phaseEndsAt: iso(phase.endsAt),
        secondsLeft: phase.secondsLeft,
        activity: period(window.activityStart, config.activityDays),
        assessment: period(window.activityEnd, config.assessmentDays),
        own: {
          subscribed: formatUnits(done.ownSubscribed),
          directInvites: done.directInvites,
          directEffective: done.directEffective,
        },
        team: {
          newMembers: done.newMembers,
          newEffective: done.newEffective,
          quantityAdded: formatUnits(done.quantityAdded),
          asOf: done.teamAsOf,
        },
        unlock: {
          held: network.held,
          unlockPercent: network.unlockPercent,
          tiers: network.tiers,
          lockupDays: network.lockupDays,
        },
      });
    },
  );
};
