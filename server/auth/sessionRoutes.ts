import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PATHS } from '../../contract/paths.ts';
import { RevokedData, type RevokeSessionBody, RevokeSessionBody as RevokeBodySchema, SessionsData } from '../../contract/sessions.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { idempotent, sendAnswer } from '../http/idempotency.ts';
import { answers, ok } from '../http/schemas.ts';
import { bearerToken, userIdOf } from './guard.ts';
import { currentHash, listSessions, revokeSessions } from './sessionList.ts';

const secured = { security: [{ bearer: [] }] };
const tags = ['sessions'];

/**
 * The holder's signed-in devices and their revocation. A revoked session is refused from its
 * next call on this process (its copy is forgotten at once) and within SESSION_CACHE_MS (1 s)
 * on every other.
 */
export const sessionRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    PATHS.sessions,
    { schema: { tags, summary: 'The holder’s live sessions, which one is this', ...secured, response: answers(SessionsData) } },
    async (request) => {
      const items = await listSessions(ctx.db, userIdOf(request), currentHash(bearerToken(request)), ctx.clock.now());
      return ok({ items });
    },
  );

  app.post(
    PATHS.sessionsRevoke,
    {
      schema: {
        tags,
        summary: 'Revoke one of the holder’s sessions (404 for an id that is not a live session of theirs)',
        ...secured,
        body: RevokeBodySchema,
        response: answers(RevokedData),
      },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      const { id } = request.body as RevokeSessionBody;
      const answer = await idempotent(ctx, request, userId, async (trx) => {
        const revoked = await revokeSessions(trx, userId, { id }, ctx.clock.now());
        if (revoked === 0) throw new AppError('NOT_FOUND', 'no such session');
        return { revoked };
      });
      return sendAnswer(reply, answer);
    },
  );

  app.post(
    PATHS.sessionsRevokeOthers,
    {
      schema: { tags, summary: 'Revoke every session of the holder but this one', ...secured, response: answers(RevokedData) },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      const keep = currentHash(bearerToken(request));
      if (!keep) throw new AppError('UNAUTHORIZED');
      const answer = await idempotent(ctx, request, userId, async (trx) => ({
        revoked: await revokeSessions(trx, userId, { allBut: keep }, ctx.clock.now()),
      }));
      return sendAnswer(reply, answer);
    },
  );
};
