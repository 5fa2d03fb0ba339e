/**
 * Days as the server counts them: UTC calendar days written YYYY-MM-DD. The date picker works
 * on local Dates, so a day travels to and from it as that calendar date in local time.
 */
const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The calendar day shown by a picked local Date. */
export function dayOfDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A day as a local Date at midnight (what the picker shows as that day). */
export function dateOfDay(day: string): Date {
  const match = DAY_RE.exec(day);
  if (!match) return new Date(Number.NaN);
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
}

/** The day `days` after (or before, when negative) `day`. */
export function addDays(day: string, days: number): string {
  const match = DAY_RE.exec(day);
  if (!match) return day;
  const time = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + days);
  return new Date(time).toISOString().slice(0, 10);
}

const utcDayOf = (instant: Date): string => instant.toISOString().slice(0, 10);

const latest = (days: readonly (string | null | undefined)[]): string | null =>
  days.reduce<string | null>((best, day) => (day && (!best || day > best) ? day : best), null);

/**
 * The server's "today", as well as the console can tell: the clock may have been moved forward
 * (demo), so it is at least the day after the last settled one and the day of the last "now"
 * the server reported, and never before today here.
 */
export function serverToday(input: { lastSettled?: string | null; serverNow?: string | null; now?: Date }): string {
  const reported = input.serverNow ? utcDayOf(new Date(input.serverNow)) : null;
  const afterSettled = input.lastSettled ? addDays(input.lastSettled, 1) : null;
  return latest([utcDayOf(input.now ?? new Date()), afterSettled, reported]) as string;
}

/** The latest day settlement has worked on (only finished days settle), from the ledger check. */
export const latestSettlementDay = (days: readonly { day: string }[] | undefined): string | null =>
  latest((days ?? []).map((d) => d.day));
