import { sql } from 'kysely';
import { UNIT } from '../../contract/money.ts';
import type { Db } from '../db/connect.ts';
import { postEntry, SYSTEM } from '../ledger/ledger.ts';
import { transact } from '../db/transact.ts';
import { LOCKS } from '../db/locks.ts';

/**
 * Demo data for a fresh embedded install: the pools and treasury funded from the outside
 * world's account, so the dashboard and every payout have real money behind them. Runs once
 * per database, even when several processes start together.
 */
export async function seedDemoData(db: Db): Promise<boolean> {
  return transact(db, async (trx) => {
    await sql`select pg_advisory_xact_lock(${LOCKS.seed})`.execute(trx);
    const done = await trx
      .selectFrom('journal_entries')
      .select('id')
      .where('ref', '=', 'seed:genesis')
      .executeTakeFirst();
    if (done) return false;
    await postEntry(trx, {
      kind: 'seed',
      ref: 'seed:genesis',
      postings: [
        { userId: SYSTEM, asset: 'AIC', kind: 'exchange', amount: -1_500_000n * UNIT },
        { userId: SYSTEM, asset: 'AIC', kind: 'supercomputing_pool', amount: 1_000_000n * UNIT },
        { userId: SYSTEM, asset: 'AIC', kind: 'treasury', amount: 500_000n * UNIT },
        { userId: SYSTEM, asset: 'USDT', kind: 'exchange', amount: -200_000n * UNIT },
        { userId: SYSTEM, asset: 'USDT', kind: 'treasury', amount: 200_000n * UNIT },
      ],
    });
    return true;
  });
}
