import type { EnvelopeOf } from '../../../contract/envelope.ts';
import { messageKeyForCode, messageKeyForHttpStatus, NO_ANSWER } from '../../../contract/errors.ts';
import { SERVER_TIME_HEADER } from '../../../contract/paths.ts';
import { heardServerTime } from '../lib/serverClock.ts';

/**
 * How long the app waits for a whole answer (headers and body). The original app set no
 * timeout, yet its catalogue has a7 "network timeout, try again later": the product waits
 * this long, then says a7 (PRODUCT decision, docs/spec-coverage.md section 8).
 */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * What came back: the status and the parsed body (null when it was not JSON), and the wait a
 * Retry-After header asked for (a busy server's 503, a rate limit's 429), in ms.
 */
export type Answer = { status: number; ok: boolean; body: unknown; retryAfterMs?: number };
/** No answer at all: the message key the user sees (a0 no connection, a7 timeout). */
export type NoAnswer = { noAnswer: typeof NO_ANSWER.offline | typeof NO_ANSWER.timeout };

/**
 * One call with the client's timeout. A call the caller cancelled (its signal) rethrows the
 * cancellation: nobody waits for that answer, so nothing is shown.
 */
export async function transport(
  url: string,
  init: RequestInit,
  callerSignal?: AbortSignal | null,
  timeoutMs: number = REQUEST_TIMEOUT_MS,
): Promise<Answer | NoAnswer> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('the answer took too long', 'TimeoutError'));
  }, timeoutMs);
  const cancel = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) cancel();
  else callerSignal?.addEventListener('abort', cancel, { once: true });
  try {
    // Each call starts in a task of its own: a screen's first render asks for several answers at
    // once (home four, the centre six), and starting them all in that render's effects made one
    // long task of the main thread.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const response = await fetch(url, { ...init, signal: controller.signal });
    heardServerTime(response.headers.get(SERVER_TIME_HEADER));
    const body: unknown = await response.json().catch(() => null);
    if (timedOut) return { noAnswer: NO_ANSWER.timeout };
    // Cancelled while its body was on the way (a list left for another screen): as a call
    // cancelled before its answer, not a 200 without an envelope (the generic error's toast).
    if (callerSignal?.aborted) throw callerSignal.reason;
    const wait = retryAfterMs(response.headers.get('retry-after'));
    return { status: response.status, ok: response.ok, body, ...(wait === undefined ? {} : { retryAfterMs: wait }) };
  } catch (error) {
    if (callerSignal?.aborted && !timedOut) throw error;
    return { noAnswer: timedOut ? NO_ANSWER.timeout : NO_ANSWER.offline };
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', cancel);
  }
}

/**
 * The wait a Retry-After header asks for, in ms; undefined without one. Seconds only: the form
 * this server (and nginx passing it on) sends; an HTTP date is not waited for.
 */
export const retryAfterMs = (header: string | null): number | undefined =>
  header !== null && /^\d+$/.test(header.trim()) ? Number(header) * 1000 : undefined;

/** Success with its data, or a refusal: its code, the catalogue's message key and the server's msg. */
export type Outcome<T> = { ok: true; data: T } | { ok: false; code: number; key: string; msg: string | null };

const isEnvelope = (body: unknown): body is EnvelopeOf<unknown> =>
  typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'number';

/**
 * Spec section 8: envelope code 0 is success. Any other envelope code maps to its message;
 * an HTTP failure without an envelope maps its status the same way; no answer at all is a0
 * or a7 (code 0).
 */
export function outcomeOf<T>(answer: Answer | NoAnswer): Outcome<T> {
  if ('noAnswer' in answer) return { ok: false, code: NO_ANSWER.code, key: answer.noAnswer, msg: null };
  if (!isEnvelope(answer.body)) {
    return { ok: false, code: answer.status, key: messageKeyForHttpStatus(answer.status), msg: null };
  }
  const envelope = answer.body as EnvelopeOf<T>;
  if (answer.ok && envelope.code === 0) return { ok: true, data: envelope.data };
  return { ok: false, code: envelope.code, key: messageKeyForCode(envelope.code), msg: envelope.msg ?? null };
}
