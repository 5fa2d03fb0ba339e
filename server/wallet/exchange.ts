import type { Transaction } from 'kysely';
import { UNIT } from '../../contract/money.ts';
import type { Database } from '../db/schema.ts';
import { postEntry, SYSTEM } from '../ledger/ledger.ts';

/**
 * The exchange as an adapter. In the embedded default the exchange is simulated inside the
 * server: each user's exchange balance is a ledger account (exchange_wallet) whose money comes
 * from the outside world's account. A real integration implements the same interface.
 */
export type ExchangeAdapter = {
  /** Called once, in the transaction that creates the user. */
  onUserCreated(trx: Transaction<Database>, userId: bigint): Promise<void>;
};

export const DEMO_BALANCES = { AIC: 20_000n * UNIT, USDT: 1_000n * UNIT } as const;

export const embeddedExchange: ExchangeAdapter = {
  async onUserCreated(trx, userId) {
    await postEntry(trx, {
      kind: 'demo_funding',
      ref: `demo:${userId}`,
      postings: (['AIC', 'USDT'] as const).flatMap((asset) => [
        { userId: SYSTEM, asset, kind: 'exchange' as const, amount: -DEMO_BALANCES[asset] },
        { userId, asset, kind: 'exchange_wallet' as const, amount: DEMO_BALANCES[asset] },
      ]),
    });
  },
};

/** A configured real exchange funds nothing on sign-up. */
export const externalExchange: ExchangeAdapter = { async onUserCreated() {} };
