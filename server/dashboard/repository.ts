import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { SYSTEM } from '../ledger/ledger.ts';
import { ORDERS, productsIn } from '../db/statuses.ts';

export type PlatformTotals = { subscribed: bigint; pool1: bigint; pool2: bigint; treasury: bigint };

/** Principal in active subscriptions, the two pools, and the treasury's AIC, straight from the ledger. */
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
      sql<bigint>`coalesce(sum(balance) filter (where kind = 'treasury' and asset = 'AIC' and user_id = ${SYSTEM}), 0)`.as(
        'treasury',
      ),
    ])
    .where('kind', 'in', ['earning', 'supercomputing_pool', 'treasury'])
    .executeTakeFirstOrThrow();
  return row;
}

export type NetworkOutput = { total: bigint; last: bigint; lastDay: string | null };

/**
 * The network output: what the supercomputing pool has paid to 360-day holders, read from the
 * pool's own postings (one per settled day: `settlement:<day>:static`), so it costs the same at
 * any number of orders; and the latest settled day's output.
 */
export async function networkOutput(db: Db): Promise<NetworkOutput> {
  const { rows } = await sql<{ total: bigint; last: bigint; last_day: string | null }>`
    with paid as (
      select substr(e.ref, 12, 10) as day, -p.amount as amount
      from postings p join journal_entries e on e.id = p.entry_id
      where p.user_id = ${SYSTEM} and p.asset = 'AIC' and p.kind = 'supercomputing_pool'
        and e.kind = 'settlement' and e.ref like 'settlement:%:static'
    )
    select coalesce(sum(amount), 0)::bigint as total,
      coalesce(sum(amount) filter (where day = (select max(day) from paid)), 0)::bigint as last,
      max(day) as last_day
    from paid`.execute(db);
  const row = rows[0];
  return { total: row?.total ?? 0n, last: row?.last ?? 0n, lastDay: row?.last_day ?? null };
}

/** Principal earning in each fixed-term product (the stable-income products): subscribed, not yet matured. */
export async function fixedSubscribed(db: Db): Promise<Map<string, bigint>> {
  const { rows } = await sql<{ product: string; total: bigint }>`
    select product, sum(principal)::bigint as total from orders
    where product in ${productsIn('fixed')} and status in ${ORDERS.active}
    group by product`.execute(db);
  return new Map(rows.map((row) => [row.product, row.total]));
}
