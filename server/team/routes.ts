import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ClaimData } from '../../contract/earn.ts';
import { formatUnits } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import {
  InviteRecordsData,
  InviteRecordsQuery,
  InviterData,
  InviterQuery,
  PlatformInviteCodeData,
  UserInfoData,
  ZeroLogData,
  ZeroLogQuery,
  ZeroProfitData,
} from '../../contract/team.ts';
import { userIdOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { idempotentPost } from '../http/idempotentPost.ts';
import { answers, ok } from '../http/schemas.ts';
import { sweepToWallet } from '../ledger/ledger.ts';
import { notifyOwnMove } from '../notify/notices.ts';
import { utcDay } from '../platform/clock.ts';
import { maskUserId, platformInviteCode, showInviter } from './inviter.ts';
import { inviteRecords, userSummary, zeroLog, zeroProfit } from './repository.ts';
import { teamRulesInForce } from './rules.ts';

const secured = { security: [{ bearer: [] }] };
const tags = ['team'];

/** The "My" screens: the user, the team and network income. */
export const teamRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    PATHS.userInfo,
    { schema: { tags, summary: 'The signed-in user: codes, level, team and earnings', ...secured, response: answers(UserInfoData) } },
    async (request) => {
      const userId = userIdOf(request);
      const summary = await userSummary(ctx.db, userId, utcDay(ctx.clock.now()));
      if (!summary.user) throw new AppError('UNAUTHORIZED');
      const { user, ...rest } = summary;
      return ok({
        userId: String(user.id),
        name: user.name,
        inviteCode: user.invite_code,
        inviterBound: user.inviter_id !== null,
        inviterCode: user.inviter_code ?? null,
        isOperator: ctx.config.operatorUserIds.includes(userId),
        ...rest,
      });
    },
  );

  // Before a bind that cannot be undone, the holder sees whose code it is: the display name
  // and a masked UID, nothing else of the inviter (the GET limit bounds guessing codes).
  app.get(
    PATHS.inviter,
    {
      schema: {
        tags,
        summary: 'Whose invitation code this is (display name, masked UID), or why it cannot be bound',
        ...secured,
        querystring: InviterQuery,
        response: answers(InviterData),
      },
    },
    async (request) => {
      const inviter = await showInviter(ctx.db, userIdOf(request), request.query.code);
      return ok({ code: inviter.code, name: inviter.name, maskedUserId: maskUserId(inviter.id) });
    },
  );

  app.get(
    PATHS.platformInviteCode,
    { schema: { tags, summary: 'The platform’s invitation code (DEFAULT_INVITE_CODE) to offer a holder without one', ...secured, response: answers(PlatformInviteCodeData) } },
    async (request) => ok({ code: await platformInviteCode(ctx.db, userIdOf(request), ctx.config.defaultInviteCode) }),
  );

  app.get(
    PATHS.inviteRecords,
    { schema: { tags, summary: 'Direct invitees and their branches, by cursor', ...secured, querystring: InviteRecordsQuery, response: answers(InviteRecordsData) } },
    async (request) => ok(await inviteRecords(ctx.db, userIdOf(request), request.query)),
  );

  app.get(
    PATHS.zeroProfit,
    { schema: { tags, summary: 'Network income: claimable, locked, next release, unlock tier', ...secured, response: answers(ZeroProfitData) } },
    async (request) => ok(await zeroProfit(ctx.db, await teamRulesInForce(ctx, utcDay(ctx.clock.now())), userIdOf(request))),
  );

  app.get(
    PATHS.zeroLog,
    { schema: { tags, summary: 'Network income lock-ups, newest first', ...secured, querystring: ZeroLogQuery, response: answers(ZeroLogData) } },
    async (request) => ok(await zeroLog(ctx.db, userIdOf(request), request.query)),
  );

  idempotentPost(
    app,
    ctx,
    PATHS.receiveProfit,
    { tags, summary: 'Claim unlocked network income into the wallet', data: ClaimData, insufficient: new AppError('CLAIM_NONE') },
    async ({ userId }, trx) => {
      const at = ctx.clock.now();
      const swept = await sweepToWallet(trx, { userId, from: 'network_rewards', kind: 'claim_network', at });
      if (!swept) throw new AppError('CLAIM_NONE');
      const claimed = formatUnits(swept.amount);
      await notifyOwnMove(trx, { userId, entryId: swept.entryId, kind: 'claimed', params: { amount: claimed, what: 'network' }, at });
      return { claimed };
    },
  );
};
