import type { Transaction } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { accessTokenOf, type Grant, type Refresh, saveGrant } from './consent.ts';
import { type ExchangeBalanceCopies, exchangeBalanceCopies } from './exchangeBalances.ts';
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
  /** This process's copies of the holders' balances at the exchange (EXCHANGE_BALANCE_TTL_MS). */
  balances: ExchangeBalanceCopies;
};

export function exchangeOf(deps: {
  db: Db;
  key: Buffer;
  client: ExchangeClient;
  refresh: Refresh;
  leaseMs: number;
  balanceTtlMs: number;
}): Exchange {
  const accessToken = (userId: bigint, stale?: boolean) => accessTokenOf(deps, userId, stale);
  const balances = exchangeBalanceCopies({ client: deps.client, accessToken }, { ttlMs: deps.balanceTtlMs });
  return {
    client: deps.client,
    leaseMs: deps.leaseMs,
    accessToken,
    balances,
    balancesMoved: (userId) => balances.forget(userId),
    async subjectOf(userId) {
      const grant = await deps.db.selectFrom('exchange_grants').select('subject').where('user_id', '=', userId).executeTakeFirst();
      if (grant) return grant.subject;
      // Users are named `<issuer>|<subject>` (auth/oauth.ts).
      const user = await deps.db.selectFrom('users').select('subject').where('id', '=', userId).executeTakeFirstOrThrow();
      return user.subject.slice(user.subject.indexOf('|') + 1);
    },
    onSignedIn: async (trx, userId, grant, now) => {
      await saveGrant(trx, deps.key, userId, grant, now);
      // A copy made without consent (all null) would hide the balances the new grant can read.
      balances.forget(userId);
    },
  };
}
