const pad = (n: number) => String(n).padStart(2, '0');

/** The calendar day of a moment in the phone's time zone, as "YYYY-MM-DD" (the day the list shows it under). */
export function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The day before a "YYYY-MM-DD" calendar day. */
function dayBefore(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return localDay(new Date(y, m - 1, d - 1, 12).getTime());
}

/**
 * How the notification centre heads a day's notices: today and yesterday by name (against the
 * server's now, so the operator's demo clock counts), any other day as a date.
 */
export function dayHeading(day: string, nowMs: number): 'today' | 'yesterday' | null {
  const today = localDay(nowMs);
  if (day === today) return 'today';
  return day === dayBefore(today) ? 'yesterday' : null;
}
