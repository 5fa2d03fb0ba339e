import { STORAGE_PREFIX } from './storage.ts';

/**
 * The server's clock as this phone last heard it: each API answer says the server's time
 * (SERVER_TIME_HEADER), which the operator's demo clock may put days from the phone's. A date the
 * screen compares with now (a lock-up's release, when saved figures are from) is on the server's
 * clock. Kept on the device, so that figures shown offline after a reload still say the right time.
 */
const KEY = `${STORAGE_PREFIX}clockOffset`;
/** A change smaller than this is the network's delay, not the clock's: not written again. */
const NOISE_MS = 1000;

let offset = stored();

function stored(): number {
  try {
    const value = Number(localStorage.getItem(KEY) ?? 0);
    return Number.isFinite(value) ? value : 0;
  } catch {
    return 0;
  }
}

/** An answer's server time (the header's value, or null), heard at `receivedAt` on this phone (ms). */
export function heardServerTime(header: string | null, receivedAt = Date.now()): void {
  const at = header === null ? Number.NaN : Date.parse(header);
  if (Number.isNaN(at) || Math.abs(at - receivedAt - offset) < NOISE_MS) return;
  offset = at - receivedAt;
  try {
    localStorage.setItem(KEY, String(offset));
  } catch {
    // Private mode: the offset lasts as long as the page.
  }
}

/** This phone's moment `at` (ms) on the server's clock. */
export const onServerClock = (at: number): number => at + offset;

/** Now on the server's clock (ms). */
export const serverNow = (): number => onServerClock(Date.now());
