/**
 * "Now" comes from one injectable clock so that tests and the operator can move through days
 * without waiting. The offset is what an operator's "advance the clock" changes.
 */
export type Clock = {
  now(): Date;
  advance(ms: number): void;
  set(date: Date): void;
  /** Where the clock is shared with other processes (sharedClock.ts): resolves once they can see the last change. */
  flush?(): Promise<void>;
};

export function systemClock(offsetMs = 0): Clock {
  let offset = offsetMs;
  return {
    now: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += ms;
    },
    set: (date) => {
      offset = date.getTime() - Date.now();
    },
  };
}

/** A frozen clock for tests: it moves only when told. */
export function fixedClock(start: Date): Clock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    set: (date) => {
      current = date.getTime();
    },
  };
}

export const DAY_MS = 86_400_000;

/** The UTC day of a moment, as YYYY-MM-DD. */
export const utcDay = (date: Date): string => date.toISOString().slice(0, 10);

/** Whether `text` is a real calendar day written YYYY-MM-DD (2026-02-30 and 2026-99-01 are not). */
export const isCalendarDay = (text: string): boolean =>
  /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && utcDay(new Date(`${text}T00:00:00Z`)) === text;

/** The days from 1970-01-01 to `day` (YYYY-MM-DD): a day's number, e.g. in an advisory lock's key. */
export const dayNumber = (day: string): number => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);

export const addDays = (day: string, days: number): string =>
  utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
