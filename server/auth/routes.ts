import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Transaction } from 'kysely';
import { Type } from 'typebox';
import { AuthorPageData, AuthorPageQuery, LoginData, LoginQuery } from '../../contract/auth.ts';
import { PATHS } from '../../contract/paths.ts';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { answers, ok } from '../http/schemas.ts';
import { bearerToken } from './guard.ts';
import type { ExchangeGrant, OAuthClient } from './oauth.ts';
import { createSession, revokeSession } from './sessions.ts';
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
    async (request) => ok(await oauth.authorizationUrl(request.query)),
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
      const identity = await oauth.exchange(request.query.code, request.query.state);
      const user = await transact(ctx.db, async (trx) => {
        const { user } = await findOrCreateUser(trx, identity.subject, identity.name);
        await exchange.onSignedIn(trx, user.id, identity.grant, ctx.clock.now());
        return user;
      });
      const token = await createSession(
        ctx.db,
        user.id,
        ctx.clock.now(),
        ctx.config.sessionTtlDays,
        request.headers['user-agent'],
      );
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
      if (token) await revokeSession(ctx.db, token, ctx.clock.now());
      return ok(null);
    },
  );
};
