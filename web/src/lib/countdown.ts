import { countdownDays } from '../../../contract/countdown.ts';

const pad = (n: number) => String(n).padStart(2, '0');

/** Seconds left of a countdown that had `seconds` left at `since` (ms), at `now` (ms). */
export const secondsLeft = (seconds: number, since: number, now: number): number =>
  Math.max(0, seconds - Math.floor(Math.max(0, now - since) / 1000));

/** Whole days and the rest as HH:MM:SS. */
export function splitCountdown(total: number): { days: number; time: string } {
  const days = countdownDays(total);
  const rest = total % 86_400;
  return { days, time: `${pad(Math.floor(rest / 3600))}:${pad(Math.floor((rest % 3600) / 60))}:${pad(rest % 60)}` };
}

const firstSeen = new WeakMap<object, number>();

/**
 * When an answer (an order object) first reached the screen: its countdown counts from there.
 * A refetch brings a new object, so the countdown restarts from the server's fresh figure.
 */
export function seenAt(item: object, now = Date.now()): number {
  const known = firstSeen.get(item);
  if (known !== undefined) return known;
  firstSeen.set(item, now);
  return now;
}
