/** Dates of the records filter and times of records: picked and shown in local time. */

const pad = (n: number) => String(n).padStart(2, '0');

/** 2024-05-01 in local time. */
export const formatDate = (date: Date): string =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** 2024-05-01 13:05:09 in local time, from an ISO date-time. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${formatDate(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The start of the local day, as a UTC ISO date-time (the inclusive "from"). */
export const startOfDayIso = (date: Date): string =>
  new Date(date.getFullYear(), date.getMonth(), date.getDate()).toISOString();

/** The start of the next local day, as a UTC ISO date-time (the exclusive "to"). */
export const endOfDayIso = (date: Date): string =>
  new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1).toISOString();
