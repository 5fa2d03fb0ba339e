import type { TermDates } from '../../contract/earn.ts';
import { addDays, utcDay } from '../platform/clock.ts';

/**
 * The dates of a term (30-day, 360-day), on the settlement's day boundary: UTC days, each
 * settled once it has ended (settlement/settle.ts). A term bought on a day starts earning on the
 * next day (the value date: the first day the settlement accrues, `runningOn` in
 * db/statuses.ts), earns `termDays` days, and matures on the day after its last: the settlement
 * of that last day runs as it ends, at 00:00 UTC of the maturity date, and makes a 30-day order
 * redeemable (or renews it) and returns a 360-day order's principal to the wallet. So the
 * principal comes back on the maturity date; the countdown counts to its first moment.
 */
export function termDates(termDays: number, boughtAt: Date): TermDates {
  const valueDay = addDays(utcDay(boughtAt), 1);
  return datesOf(valueDay, addDays(valueDay, termDays));
}

/** A stored order's dates, from its value date and maturity date (as `termDates` set them). */
export const datesOf = (valueDay: string, maturesDay: string): TermDates => ({
  valueDay,
  maturesDay,
  principalReturnDay: maturesDay,
});

/** The moment a term matures: the start of its maturity date, where the settlement's day boundary is. */
export const maturesAt = (maturesDay: string): Date => new Date(`${maturesDay}T00:00:00Z`);
