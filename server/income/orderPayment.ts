import { type RawBuilder, sql } from 'kysely';

/** An order's columns in an `OrderPayment`'s expressions: as they were before the payment. */
export type OrderColumns = {
  principal: RawBuilder<unknown>;
  income: RawBuilder<unknown>;
  power: RawBuilder<unknown>;
  cyclesPaid: RawBuilder<unknown>;
  reinvest: RawBuilder<unknown>;
};

/**
 * A step that pays orders and adds what it pays to their totals (the fixed accrual, the pool's
 * output, the current cycles), described once: the orders are updated in place and the step's
 * lines, money and totals come from the rows as the update wrote them (`paidInPlace`).
 *
 * `dest`, `principalAdd` and `powerAdd` may read only columns the payment does not change (the
 * product, `reinvest`): the update returns the row after the payment, and the columns before it
 * are worked back from the amount it stored (`last_income`).
 */
export type OrderPayment = {
  /** The orders the step pays: a condition on `orders`. */
  where: RawBuilder<unknown>;
  /** An order's amount, from its columns before the payment. */
  amount: (o: OrderColumns) => RawBuilder<unknown>;
  /** The receiving account: 'earning' or 'rewards'. */
  dest: (o: OrderColumns) => RawBuilder<unknown>;
  /** What the amount adds to the order's principal and power (nothing unless given). */
  principalAdd?: (amount: RawBuilder<unknown>, o: OrderColumns) => RawBuilder<unknown>;
  powerAdd?: (amount: RawBuilder<unknown>, o: OrderColumns) => RawBuilder<unknown>;
  /** Whether a payment completes a cycle (a current order's). */
  cycle?: boolean;
  /** The line's input columns (the kind's LINE_COLUMNS, named), from the columns before the payment. */
  inputs: (o: OrderColumns) => RawBuilder<unknown>;
};

const ZERO = () => sql`0`;

/** The columns as stored: before the payment, as the update's SET expressions read them. */
export const STORED: OrderColumns = {
  principal: sql`principal`,
  income: sql`income`,
  power: sql`power`,
  cyclesPaid: sql`cycles_paid`,
  reinvest: sql`reinvest`,
};

/**
 * The update that pays the orders and returns the candidates' columns (user_id, order_id,
 * amount, dest, principal_add, power_add, cycle_add and the line's inputs) for each. One pass
 * over the orders paid: an update joined to candidates read first hashed every order, paid or
 * not.
 * It is the source of the lines, so they say what it did even to an order a holder changed
 * meanwhile (a reinvestment switched: PostgreSQL then updates the row as it is now).
 *
 * `unpaid` (a later run, after one that paid some of the step's lines): only orders without a
 * line of the day and kind yet.
 */
export function paidInPlace(payment: OrderPayment, unpaid?: { day: string; kind: string }): RawBuilder<unknown> {
  const principalAdd = payment.principalAdd ?? ZERO;
  const powerAdd = payment.powerAdd ?? ZERO;
  const cycles = sql.lit(payment.cycle ? 1 : 0);
  const amount = sql`x.amount`;
  // After the update: the amount it stored, and the columns before it worked back from it.
  const paid = sql`last_income`;
  const before: OrderColumns = {
    principal: sql`(principal - ${principalAdd(paid, STORED)})`,
    income: sql`(income - ${paid})`,
    power: sql`(power - ${powerAdd(paid, STORED)})`,
    cyclesPaid: sql`(cycles_paid - ${cycles})`,
    reinvest: STORED.reinvest,
  };
  const notYet = unpaid
    ? sql`and not exists (select 1 from income i
        where i.user_id = orders.user_id and i.order_id = orders.id and i.day = ${unpaid.day}::date and i.kind = ${unpaid.kind})`
    : sql``;
  return sql`
    update orders set (last_income, income, principal, power, cycles_paid) = (
      select ${amount}, income + ${amount}, principal + ${principalAdd(amount, STORED)},
        power + ${powerAdd(amount, STORED)}, cycles_paid + ${cycles}
      from (select ${payment.amount(STORED)} as amount) x)
    where ${payment.where} ${notYet}
    returning user_id, id as order_id, ${paid} as amount, ${payment.dest(before)} as dest,
      (${principalAdd(paid, STORED)})::bigint as principal_add, (${powerAdd(paid, STORED)})::bigint as power_add,
      ${cycles} as cycle_add, ${payment.inputs(before)}`;
}
