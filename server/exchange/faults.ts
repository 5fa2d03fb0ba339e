/**
 * Faults the embedded exchange makes on demand, for the tests and the reliability suite: what a
 * real exchange does on a bad day. Each chance is a probability per request (0 to 1).
 */
export type ExchangeFaults = {
  /** A write is applied, and its answer comes only after `hangMs` (the caller has timed out). */
  timeoutAfterApply: number;
  /** A write answers 503 before anything is applied. */
  failBeforeApply: number;
  /** Every answer of the API waits this long first. */
  slowMs: number;
  /** How long a timed-out answer hangs. */
  hangMs: number;
  /** A webhook is sent twice. */
  webhookDuplicate: number;
  /** Each webhook waits up to this long (at random), so they arrive out of order. */
  webhookDelayMs: number;
  /** A webhook is sent with a signature that does not verify (and then the right one). */
  webhookBadSignature: number;
};

export const NO_FAULTS: ExchangeFaults = {
  timeoutAfterApply: 0,
  failBeforeApply: 0,
  slowMs: 0,
  hangMs: 15_000,
  webhookDuplicate: 0,
  webhookDelayMs: 0,
  webhookBadSignature: 0,
};

const NAMES = Object.keys(NO_FAULTS) as (keyof ExchangeFaults)[];

/**
 * `EXCHANGE_FAULTS`, as `name=value` pairs separated by commas (`timeoutAfterApply=0.1,slowMs=50`);
 * unset: none. Throws a one-line message naming what is wrong.
 */
export function parseFaults(text: string | undefined): ExchangeFaults {
  const faults = { ...NO_FAULTS };
  for (const pair of (text ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name, value] = pair.split('=');
    const number = Number(value);
    if (!NAMES.includes(name as keyof ExchangeFaults) || value === undefined || !Number.isFinite(number) || number < 0) {
      throw new Error(`EXCHANGE_FAULTS must be name=number pairs of ${NAMES.join(', ')} (got "${pair}")`);
    }
    faults[name as keyof ExchangeFaults] = number;
  }
  return faults;
}

export const chance = (p: number) => p > 0 && Math.random() < p;
export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
