import type { Transaction } from 'kysely';
import { UNIT } from '../../contract/money.ts';
import type { Asset, Database } from '../db/schema.ts';
import { type AccountKey, postEntry, SYSTEM } from '../ledger/ledger.ts';

/**
 * The exchange as an adapter. In the embedded default the exchange is simulated inside the
 * server: each user's exchange balance is a ledger account (exchange_wallet) whose money came
 * from the outside world's account. A real integration implements the same interface: its
 * counterpart is the platform's own `exchange` account, and it calls the exchange's API.
 */
export type ExchangeAdapter = {
  /** Called once, in the transaction that creates the user, at `now` of the app's clock. */
  onUserCreated(trx: Transaction<Database>, userId: bigint, now: Date): Promise<void>;
  /** The account on the exchange side of a user's transfer. */
  counterpart(userId: bigint, asset: Asset): AccountKey;
};

export const DEMO_BALANCES = { AIC: 20_000n * UNIT, USDT: 1_000n * UNIT } as const;

export const embeddedExchange: ExchangeAdapter = {
  async onUserCreated(trx, userId, now) {
    await postEntry(trx, {
      kind: 'demo_funding',
      ref: `demo:${userId}`,
      at: now,
      postings: (['AIC', 'USDT'] as const).flatMap((asset) => [
        { userId: SYSTEM, asset, kind: 'exchange' as const, amount: -DEMO_BALANCES[asset] },
        { userId, asset, kind: 'exchange_wallet' as const, amount: DEMO_BALANCES[asset] },
      ]),
    });
  },
  counterpart: (userId, asset) => ({ userId, asset, kind: 'exchange_wallet' }),
};

/** A configured real exchange: funds nothing on sign-up, settles against the platform's account. */
export const externalExchange: ExchangeAdapter = {
  async onUserCreated() {},
  counterpart: (_userId, asset) => ({ userId: SYSTEM, asset, kind: 'exchange' }),
};
