import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { rebateHolder } from './inputs.ts';

/**
 * How many holders' income totals (by kind and branch, migration 0037) differ from the sum of
 * their lines: 0 when every step kept them. A whole scan of the lines, for the checks after a
 * day and the tests, never a request.
 */
export async function incomeTotalsMismatched(db: Db): Promise<number> {
  const { rows } = await sql<{ n: bigint }>`
    select count(*) as n from income_totals t
    full join (
      select user_id, kind,
        case when kind = 'rebate' then coalesce(${rebateHolder('income', 'branch')}, 0) else 0 end as branch,
        sum(amount) as amount
      from income where amount > 0 group by 1, 2, 3
    ) l using (user_id, kind, branch)
    where coalesce(t.amount, 0) <> coalesce(l.amount, 0)`.execute(db);
  return Number(rows[0]?.n ?? 0n);
}
