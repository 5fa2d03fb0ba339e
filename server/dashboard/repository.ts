import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { SYSTEM } from '../ledger/ledger.ts';

export type PlatformTotals = { subscribed: bigint; pool1: bigint; pool2: bigint };

/** Principal in active subscriptions, and the two pools, straight from the ledger. */
export async function platformTotals(db: Db): Promise<PlatformTotals> {
  const row = await db
    .selectFrom('accounts')
    .select([
      sql<bigint>`coalesce(sum(balance) filter (where kind = 'earning' and asset = 'AIC' and user_id <> ${SYSTEM}), 0)`.as(
        'subscribed',
      ),
      sql<bigint>`coalesce(sum(balance) filter (where kind = 'supercomputing_pool' and asset = 'AIC' and user_id = ${SYSTEM}), 0)`.as(
        'pool1',
      ),
      sql<bigint>`coalesce(sum(balance) filter (where kind = 'treasury' and asset = 'USDT' and user_id = ${SYSTEM}), 0)`.as(
        'pool2',
      ),
    ])
    .where('kind', 'in', ['earning', 'supercomputing_pool', 'treasury'])
    .executeTakeFirstOrThrow();
  return row;
}
