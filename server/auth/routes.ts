import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import { Type } from 'typebox';
import { AuthorPageData, AuthorPageQuery, LoginData, LoginQuery } from '../../contract/auth.ts';
import { PATHS } from '../../contract/paths.ts';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { answers, ok } from '../http/schemas.ts';
import { bearerToken } from './guard.ts';
import type { ExchangeGrant, OAuthClient } from './oauth.ts';
import { createSession, revokeSession, sessionNow } from './sessions.ts';
import { findOrCreateUser } from './users.ts';
import { transact } from '../db/transact.ts';

/**
 * What sign-in hands the wallet: the holder's consent to be debited at the exchange (their
 * tokens). `wallet/consent.ts` keeps it, passed in by `app.ts`, so auth imports nothing of wallet.
 */
type SignInHook = {
  /** Called in the transaction that finds or creates the user, at `now` of the app's clock. */
  onSignedIn(trx: Transaction<Database>, userId: bigint, grant: ExchangeGrant, now: Date): Promise<void>;
};

/**
 * A sign-in step the exchange failed (502, 504) is logged at warn with why: it is the exchange's
 * or its settings' fault, not the caller's, and no one can sign in while it lasts.
 */
async function upstreamWarned<T>(request: FastifyRequest, step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (error) {
    if (error instanceof AppError && (error.errorName === 'BAD_GATEWAY' || error.errorName === 'GATEWAY_TIMEOUT')) {
      request.log.warn({ code: error.errorName, detail: error.detail }, 'sign-in: the exchange failed');
    }
    throw error;
  }
}

export type AuthDeps = { ctx: AppContext; oauth: OAuthClient; exchange: SignInHook };

export const authRoutes: FastifyPluginAsyncTypebox<AuthDeps> = async (app, { ctx, oauth, exchange }) => {
  app.get(
    PATHS.authorPage,
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'The exchange authorisation address to send the window to',
        querystring: AuthorPageQuery,
        response: answers(AuthorPageData),
      },
    },
    async (request) => ok(await upstreamWarned(request, oauth.authorizationUrl(request.query))),
  );

  app.get(
    PATHS.login,
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Exchange the code and state of the redirect for a session token',
        querystring: LoginQuery,
        response: answers(LoginData),
      },
    },
    async (request) => {
      const identity = await upstreamWarned(request, oauth.exchange(request.query.code, request.query.state));
      const user = await transact(ctx.db, async (trx) => {
        const { user } = await findOrCreateUser(trx, identity.subject, identity.name);
        await exchange.onSignedIn(trx, user.id, identity.grant, ctx.clock.now());
        return user;
      });
      const token = await createSession(ctx.db, user.id, ctx.config.sessionTtlDays, request.headers['user-agent']);
      request.log.info({ userId: String(user.id) }, 'signed in');
      return ok({ token, userId: String(user.id), redirectRefer: identity.redirectRefer });
    },
  );

  app.post(
    PATHS.logout,
    {
      schema: { tags: ['auth'], summary: 'Revoke this session', security: [{ bearer: [] }], response: answers(Type.Null()) },
    },
    async (request) => {
      const token = bearerToken(request);
      if (token) await revokeSession(ctx.db, token, sessionNow());
      return ok(null);
    },
  );
};
