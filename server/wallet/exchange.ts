import type { Transaction } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { accessTokenOf, type Grant, type Refresh, saveGrant } from './consent.ts';
import type { ExchangeClient } from './exchangeClient.ts';
import type { ExchangePort } from './transfers.ts';

/**
 * The wallet's side of the exchange: its API client, the holders' consent (their tokens, kept
 * sealed) and their subjects there. The same whether the exchange is another company's or the
 * embedded one: `app.ts` only picks the client's address and transport.
 */
export type Exchange = ExchangePort & {
  /** Sign-in's hook (auth/routes.ts): keeps the holder's latest consent. */
  onSignedIn(trx: Transaction<Database>, userId: bigint, grant: Grant, now: Date): Promise<void>;
};

export function exchangeOf(deps: { db: Db; key: Buffer; client: ExchangeClient; refresh: Refresh; leaseMs: number }): Exchange {
  return {
    client: deps.client,
    leaseMs: deps.leaseMs,
    accessToken: (userId, stale) => accessTokenOf(deps, userId, stale),
    async subjectOf(userId) {
      const grant = await deps.db.selectFrom('exchange_grants').select('subject').where('user_id', '=', userId).executeTakeFirst();
      if (grant) return grant.subject;
      // Users are named `<issuer>|<subject>` (auth/oauth.ts).
      const user = await deps.db.selectFrom('users').select('subject').where('id', '=', userId).executeTakeFirstOrThrow();
      return user.subject.slice(user.subject.indexOf('|') + 1);
    },
    onSignedIn: (trx, userId, grant, now) => saveGrant(trx, deps.key, userId, grant, now),
  };
}
