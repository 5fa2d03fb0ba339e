import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { PATHS } from '../../contract/paths.ts';
import { RevokedData, RevokeSessionBody, SessionsData } from '../../contract/sessions.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { idempotentPost } from '../http/idempotentPost.ts';
import { answers, ok } from '../http/schemas.ts';
import { bearerToken, userIdOf } from './guard.ts';
import { currentHash, listSessions, revokeSessions } from './sessionList.ts';
import { sessionNow } from './sessions.ts';

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
      const items = await listSessions(ctx.db, userIdOf(request), currentHash(bearerToken(request)), sessionNow());
      return ok({ items });
    },
  );

  idempotentPost(
    app,
    ctx,
    PATHS.sessionsRevoke,
    {
      tags,
      summary: 'Revoke one of the holder’s sessions (404 for an id that is not a live session of theirs)',
      body: RevokeSessionBody,
      data: RevokedData,
    },
    async ({ userId, body }, trx) => {
      const revoked = await revokeSessions(trx, userId, { id: body.id }, sessionNow());
      if (revoked === 0) throw new AppError('NOT_FOUND', 'no such session');
      return { revoked };
    },
  );

  /** The session this request came with: the one not revoked. */
  const thisSession = (request: FastifyRequest) => currentHash(bearerToken(request));
  idempotentPost(
    app,
    ctx,
    PATHS.sessionsRevokeOthers,
    {
      tags,
      summary: 'Revoke every session of the holder but this one',
      data: RevokedData,
      check: ({ request }) => {
        if (!thisSession(request)) throw new AppError('UNAUTHORIZED');
      },
    },
    // The check above found this session.
    async ({ userId, request }, trx) => ({
      revoked: await revokeSessions(trx, userId, { allBut: thisSession(request) as string }, sessionNow()),
    }),
  );
};
