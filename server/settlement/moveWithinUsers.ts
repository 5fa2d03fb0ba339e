import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { AccountKind, Database } from '../db/schema.ts';

/**
 * Moves AIC between two accounts of each user in one statement, for every row `changes` yields
 * (a data-changing CTE returning user_id and amount): one journal entry, a pair of postings per
 * user, the debits (guarded by the CHECK constraint) and the credits. Answers how many rows
 * `changes` yielded.
 */
export async function moveWithinUsers(
  trx: Transaction<Database>,
  move: { changes: RawBuilder<unknown>; from: AccountKind; to: AccountKind; kind: string; ref: string; at?: Date },
): Promise<number> {
  const { rows } = await sql<{ n: bigint }>`
    with changed as (${move.changes}),
    per_user as (
      select user_id, sum(amount)::bigint as amount from changed where amount > 0 group by user_id
    ),
    entry as (
      insert into journal_entries (kind, ref, created_at)
      select ${move.kind}, ${move.ref}, coalesce(${move.at ?? null}::timestamptz, now())
      where exists (select 1 from per_user)
      returning id
    ),
    posts as (
      insert into postings (entry_id, user_id, asset, kind, amount)
      select entry.id, p.user_id, 'AIC', ${move.from}, -p.amount from entry, per_user p
      union all
      select entry.id, p.user_id, 'AIC', ${move.to}, p.amount from entry, per_user p
      returning 1
    ),
    debit as (
      update accounts a set balance = a.balance - p.amount from per_user p
      where a.user_id = p.user_id and a.asset = 'AIC' and a.kind = ${move.from}
      returning 1
    ),
    credit as (
      insert into accounts (user_id, asset, kind, balance)
      select user_id, 'AIC', ${move.to}, amount from per_user
      on conflict (user_id, asset, kind) do update set balance = accounts.balance + excluded.balance
      returning 1
    )
    select count(*) as n from changed`.execute(trx);
  return Number(rows[0]?.n ?? 0n);
}
