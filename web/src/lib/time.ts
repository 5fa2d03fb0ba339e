/** The records filter's picked days as UTC ranges (lib/format.ts shows dates and times). */

/** The start of the local day, as a UTC ISO date-time (the inclusive "from"). */
export const startOfDayIso = (date: Date): string =>
  new Date(date.getFullYear(), date.getMonth(), date.getDate()).toISOString();

/** The start of the next local day, as a UTC ISO date-time (the exclusive "to"). */
export const endOfDayIso = (date: Date): string =>
  new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1).toISOString();
