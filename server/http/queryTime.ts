import { AppError } from './errors.ts';

/** The first moment after the last that an ISO time of PostgreSQL's (a four-digit year) can write. */
const PAST_YEAR_9999 = Date.parse('+010000-01-01T00:00:00Z');
/** The first moment of year 1: PostgreSQL takes no year 0 written as ISO, nor a negative year. */
const YEAR_1 = Date.parse('0001-01-01T00:00:00Z');

/**
 * A time of a query (a date-time the schema checked) as the ISO text PostgreSQL takes, checked
 * before a gathered call (platform/readCalls.ts: a call that fails fails its turn): one JavaScript
 * cannot read (a leap second) or that falls outside years 1 to 9999 in UTC is a parameter error,
 * as PostgreSQL's refusal of it was when it was the request's own statement.
 */
export function queryTime(at: string | undefined): string | null {
  if (!at) return null;
  const ms = new Date(at).getTime();
  if (!(ms >= YEAR_1 && ms < PAST_YEAR_9999)) throw new AppError('PARAM', `not a time PostgreSQL takes: ${at}`);
  return new Date(ms).toISOString();
}
