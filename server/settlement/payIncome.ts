import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

export type IncomeStep = {
  day: string;
  kind: 'current' | 'fixed' | 'static' | 'rebate';
  /** The system account that pays: it must hold the money, or the step waits. */
  from: 'treasury' | 'supercomputing_pool';
  /**
   * Rows to pay: user_id, order_id, amount, dest ('earning' | 'rewards'), principal_add,
   * power_add, cycle_add, inputs (jsonb: what the amount was computed from).
   */
  candidates: RawBuilder<unknown>;
  /** When the entry is dated (the app's clock); the database's time without it. */
  at?: Date;
};

export class Shortfall extends Error {
  constructor(
    readonly account: string,
    readonly needed: bigint,
  ) {
    super(`${account} cannot cover ${needed}`);
  }
}

/**
 * Pays one settlement step in a single statement: income rows keyed by (order, day, kind)
 * (a second run inserts nothing and so pays nothing), the orders' totals, one journal entry
 * with a posting per receiving account and one from the paying system account, and the
 * balances. The paying account's CHECK refuses to go below zero: then nothing is paid.
 */
export async function payIncome(trx: Transaction<Database>, step: IncomeStep): Promise<{ rows: number; total: bigint }> {
  const ref = `settlement:${step.day}:${step.kind}`;
  let result: { rows: bigint; total: bigint; debited: bigint } | undefined;
  try {
    const { rows } = await sql<{ rows: bigint; total: bigint; debited: bigint }>`
      with candidates as (${step.candidates}),
      new_income as (
        insert into income (user_id, order_id, day, kind, amount, inputs)
        select user_id, order_id, ${step.day}::date, ${step.kind}, amount, inputs from candidates
        on conflict do nothing
        returning user_id, order_id, amount
      ),
      paid as (
        select n.user_id, n.order_id, n.amount, c.dest, c.principal_add, c.power_add, c.cycle_add
        from new_income n join candidates c on c.user_id = n.user_id and c.order_id = n.order_id
      ),
      order_updates as (
        update orders o set
          income = o.income + p.amount,
          principal = o.principal + p.principal_add,
          power = o.power + p.power_add,
          cycles_paid = o.cycles_paid + p.cycle_add
        from paid p where o.user_id = p.user_id and o.id = p.order_id
        returning 1
      ),
      per_account as (
        select user_id, dest as kind, sum(amount)::bigint as amount
        from paid where amount > 0 group by user_id, dest
      ),
      total as (select coalesce(sum(amount), 0)::bigint as amount from per_account),
      entry as (
        insert into journal_entries (kind, ref, created_at)
        select 'settlement', ${ref}, coalesce(${step.at ?? null}::timestamptz, now()) from total where amount > 0
        returning id
      ),
      posts as (
        insert into postings (entry_id, user_id, asset, kind, amount)
        select entry.id, pa.user_id, 'AIC', pa.kind, pa.amount from entry, per_account pa
        union all
        select entry.id, 0, 'AIC', ${step.from}, -total.amount from entry, total
        returning 1
      ),
      credit as (
        insert into accounts (user_id, asset, kind, balance)
        select user_id, 'AIC', kind, amount from per_account
        on conflict (user_id, asset, kind) do update set balance = accounts.balance + excluded.balance
        returning 1
      ),
      debit as (
        update accounts a set balance = a.balance - total.amount from total
        where a.user_id = 0 and a.asset = 'AIC' and a.kind = ${step.from} and total.amount > 0
        returning 1
      )
      select (select count(*) from paid) as rows,
             (select amount from total) as total,
             (select count(*) from debit) as debited`.execute(trx);
    result = rows[0];
  } catch (error) {
    if ((error as { code?: string }).code === '23514') throw new Shortfall(step.from, -1n);
    throw error;
  }
  if (!result) throw new Error('settlement step returned nothing');
  // No paying account at all is a shortfall too: money is never created.
  if (result.total > 0n && result.debited === 0n) throw new Shortfall(step.from, result.total);
  return { rows: Number(result.rows), total: result.total };
}
