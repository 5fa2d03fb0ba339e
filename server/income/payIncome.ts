import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { postBatch } from '../ledger/batch.ts';
import { InsufficientBalance } from '../ledger/ledger.ts';

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
  /**
   * Whether each amount adds to its order's totals (income, principal, power, cycles). Rebates
   * do not: they are paid to an ancestor on someone else's order.
   */
  addsToOrders?: boolean;
  /** When the entry is dated (the app's clock); the database's time without it. */
  at?: Date | undefined;
};

export class Shortfall extends Error {
  constructor(
    readonly account: string,
    readonly needed: bigint,
  ) {
    super(`${account} cannot cover ${needed}`);
  }
}

/** The paid orders' totals, for steps whose amounts add to them. */
const orderUpdates = sql`,
  order_updates as (
    update orders o set
      income = o.income + p.amount,
      principal = o.principal + p.principal_add,
      power = o.power + p.power_add,
      cycles_paid = o.cycles_paid + p.cycle_add
    from paid p where o.user_id = p.user_id and o.id = p.order_id
    returning 1
  )`;

/**
 * Pays one settlement step in a single statement: income rows keyed by (order, day, kind)
 * (a second run inserts nothing and so pays nothing) and the orders' totals are written here;
 * the money (one journal entry, a posting per receiving account and one from the paying system
 * account, the balances) by the ledger's batch form around them. The paying account's CHECK
 * refuses to go below zero, and a missing paying account is refused too: then nothing is paid
 * and the step throws `Shortfall` (`needed` is -1: the database does not say how much).
 */
export async function payIncome(trx: Transaction<Database>, step: IncomeStep): Promise<{ rows: number; total: bigint }> {
  try {
    const posted = await postBatch<{ paid: bigint }>(trx, {
      kind: 'settlement',
      ref: `settlement:${step.day}:${step.kind}`,
      at: step.at,
      with: sql`
        candidates as (${step.candidates}),
        new_income as (
          insert into income (user_id, order_id, day, kind, amount, inputs)
          select user_id, order_id, ${step.day}::date, ${step.kind}, amount, inputs from candidates
          on conflict do nothing
          returning user_id, order_id, amount
        ),
        all_new as (select (select count(*) from new_income) = (select count(*) from candidates) as yes),
        paid as (
          -- Usually every candidate is new (a first run): then they are what was paid, and the
          -- join back (a sort of a million rows each side for the rebates) is skipped.
          select c.user_id, c.order_id, c.amount, c.dest, c.principal_add, c.power_add, c.cycle_add
          from candidates c where (select yes from all_new)
          union all
          select n.user_id, n.order_id, n.amount, c.dest, c.principal_add, c.power_add, c.cycle_add
          from new_income n join candidates c on c.user_id = n.user_id and c.order_id = n.order_id
          where not (select yes from all_new)
        )${step.addsToOrders === false ? sql`` : orderUpdates}`,
      lines: sql`
        select user_id, dest as kind, amount from paid where amount > 0
        union all
        select 0, ${step.from}::text, -coalesce(sum(amount), 0) from paid where amount > 0`,
      report: sql`(select count(*) from paid) as paid`,
    });
    return { rows: Number(posted.paid), total: posted.moved };
  } catch (error) {
    if (error instanceof InsufficientBalance) throw new Shortfall(step.from, -1n);
    throw error;
  }
}
