import type { Answer, NoAnswer } from './transport.ts';

/** Times a call the server was too busy for (503 with Retry-After) is asked again, at most. */
export const BUSY_RETRIES = 2;
/** A busy server asking for a longer wait than this is not waited for: the holder is told. */
const MAX_BUSY_WAIT_MS = 10_000;

/** The wait before asking again when the server said it was busy (503 with Retry-After), else undefined. */
export function busyWait(answer: Answer | NoAnswer): number | undefined {
  if ('noAnswer' in answer || answer.status !== 503 || answer.retryAfterMs === undefined) return undefined;
  return answer.retryAfterMs <= MAX_BUSY_WAIT_MS ? answer.retryAfterMs : undefined;
}

/**
 * Whether a call may be sent again: a GET, or a POST carrying its Idempotency-Key (the server
 * runs a key once). A POST without one never is: it could act twice.
 */
export const mayRepeat = (method: string | undefined, headers: Record<string, string>): boolean =>
  method === undefined || method === 'GET' || Boolean(headers['Idempotency-Key']);

/** Waits `ms`, or rethrows the caller's cancellation at once, as a call cancelled in flight does. */
export function pause(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * Sends `call`, and while the server answers that it is busy (503 with a Retry-After, load
 * shedding), sends it again after the wait it asked for, at most BUSY_RETRIES times. Only for a
 * call that may be sent twice: a GET, or a POST with its Idempotency-Key (the server runs a key
 * once, and a shed request did nothing).
 */
export async function withBackoff(
  call: () => Promise<Answer | NoAnswer>,
  signal?: AbortSignal | null,
  wait: (ms: number, signal?: AbortSignal | null) => Promise<void> = pause,
): Promise<Answer | NoAnswer> {
  for (let retries = 0; ; retries++) {
    const answer = await call();
    const delay = busyWait(answer);
    if (delay === undefined || retries >= BUSY_RETRIES) return answer;
    await wait(delay, signal);
  }
}

/** What the query cache's retry reads of a failed call (the api client's ApiError). */
type Failure = { busy?: boolean; retryAfterMs?: number | undefined };

/**
 * The query cache's retry: once, but not a call the server was too busy for, which the client
 * has already asked again after the server's waits (withBackoff): the bound stays BUSY_RETRIES.
 */
export const queryRetry = (failures: number, error: unknown): boolean => failures < 1 && !(error as Failure | null)?.busy;

/** The query cache's wait before a retry: the server's Retry-After when it gave one (429), else TanStack's own. */
export const queryRetryDelay = (failures: number, error: unknown): number =>
  (error as Failure | null)?.retryAfterMs ?? Math.min(1000 * 2 ** failures, 30_000);
