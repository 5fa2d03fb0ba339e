/** Statement months are UTC months written "YYYY-MM". */

/** The month `delta` months from `month` ("2026-01", -1 → "2025-12"). */
export function shiftMonth(month: string, delta: number): string {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  const date = new Date(Date.UTC(year, mon - 1 + delta, 1));
  return date.toISOString().slice(0, 7);
}

/** The month a date picked on the device stands for (its local year and month). */
export const monthOfPicked = (date: Date): string =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}`;

/** The first day of a month as a local date, for the month picker. */
export function pickerDate(month: string): Date {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return new Date(year, mon - 1, 1);
}
