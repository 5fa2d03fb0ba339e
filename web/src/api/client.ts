import { NO_ANSWER } from '../../../contract/errors.ts';
import { currentLanguage, i18next } from '../i18n/index.ts';
import { session, storage } from '../lib/storage.ts';
import { noticeAnswer, noticeNoAnswer } from '../lib/connectivity.ts';
import { showToast } from '../lib/toast.ts';
import { sessionStore } from '../session/store.ts';
import { busyWait, mayRepeat, withBackoff } from './backoff.ts';
import { type Answer, type NoAnswer, outcomeOf, transport } from './transport.ts';

/** The configured API host; empty means the same origin that served the app. */
const HOST = (import.meta.env.VITE_API_HOST as string | undefined) ?? '';
export const TOAST_MS = 2000;
export const LOGOUT_DELAY_MS = 1000;

/**
 * A refused call: the envelope code and the translated message the user saw; whether the server
 * was too busy for it (asked again already: api/backoff.ts), and the wait its Retry-After asked for.
 */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly busy = false,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

type Params = Record<string, string | number | boolean | undefined | null>;

export type CallOptions = {
  /** Show the failure as a toast (default true). */
  toast?: boolean;
  /** POST only: the same key for a retry of the same user action. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** How long to wait for the answer before a7 (default REQUEST_TIMEOUT_MS). */
  timeoutMs?: number;
};

function encode(params: Params | undefined): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  return search.toString();
}

function headers(extra: Record<string, string>): Record<string, string> {
  const token = storage.get('token');
  return {
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
    'X-Lang': currentLanguage(),
    ...extra,
  };
}

let forcedLogout = false;

/**
 * Spec sections 4 and 8: a 401 says a11, clears the signed-in keys, then after 1 s goes home and
 * reloads. Home then says the session has ended, in the holder's language, and waits for them to
 * sign in again rather than sending them to the exchange's page unannounced (issue 61).
 */
function forceLogout(message: string): void {
  if (forcedLogout) return;
  forcedLogout = true;
  // Said once, whichever call met the 401 first (even one that shows no toast of its own).
  showError(message);
  // Start-up must not authorise at once: home waits the 1 s with everyone else.
  sessionStore.beginLogout();
  sessionStore.clear();
  session.markEnded();
  setTimeout(() => {
    location.hash = '#/home';
    location.reload();
  }, LOGOUT_DELAY_MS);
}

function showError(message: string): void {
  showToast({ content: message, icon: 'fail', duration: TOAST_MS });
}

/**
 * A 401 for a token that is no longer the stored one, or during a logout, only confirms the
 * session has ended: it must not start a forced logout of its own.
 */
const staleSession = (sentToken: string | null) =>
  sessionStore.isLoggingOut() || storage.get('token') !== sentToken;

/** Spec section 8: a refused call shows the catalogue's message as a toast (401 also logs out). */
function handle<T>(answer: Answer | NoAnswer, options: CallOptions, sentToken: string | null): T {
  if (!('noAnswer' in answer)) noticeAnswer();
  else if (answer.noAnswer === NO_ANSWER.offline) noticeNoAnswer();
  const outcome = outcomeOf<T>(answer);
  if (outcome.ok) return outcome.data;
  const { code, key } = outcome;
  // The catalogue's translation first; the server's msg only where we have no text of our own.
  const translated = i18next.exists(key) ? i18next.t(key) : (outcome.msg ?? i18next.t('err.generic'));
  const refused = new ApiError(code, translated, busyWait(answer) !== undefined, 'noAnswer' in answer ? undefined : answer.retryAfterMs);
  if (code === 401 && staleSession(sentToken)) throw refused;
  if (code === 401) forceLogout(translated);
  else if (options.toast !== false) showError(translated);
  throw refused;
}

async function send<T>(path: string, init: RequestInit, extra: Record<string, string>, options: CallOptions) {
  const sentToken = storage.get('token');
  const call = () => transport(`${HOST}${path}`, { ...init, headers: headers(extra) }, options.signal, options.timeoutMs);
  // A busy server's 503 is asked again after its Retry-After: a GET, or a POST with its key (run once).
  const answer = mayRepeat(init.method, extra) ? await withBackoff(call, options.signal) : await call();
  return handle<T>(answer, options, sentToken);
}

export function apiGet<T>(path: string, params?: Params, options: CallOptions = {}): Promise<T> {
  const query = encode(params);
  return send<T>(query ? `${path}?${query}` : path, {}, {}, options);
}

/**
 * A file the server answers (a CSV export), fetched with the bearer token a plain link could not
 * carry. A refusal comes as the envelope and is handled like any other call.
 */
export async function apiDownload(path: string, options: CallOptions = {}): Promise<{ blob: Blob; filename: string | null }> {
  const sentToken = storage.get('token');
  const response = await fetch(`${HOST}${path}`, { headers: headers({}), signal: options.signal ?? null }).catch(() => null);
  if (!response) return handle<never>({ noAnswer: NO_ANSWER.offline }, options, sentToken);
  if (!response.ok || (response.headers.get('content-type') ?? '').includes('json')) {
    const body: unknown = await response.json().catch(() => null);
    return handle<never>({ status: response.status, ok: false, body }, options, sentToken);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  return { blob: await response.blob(), filename: /filename="([^"]+)"/.exec(disposition)?.[1] ?? null };
}

/** POST with a JSON body; every POST carries an Idempotency-Key (one per user action). */
export function apiPost<T>(path: string, body: object, options: CallOptions = {}): Promise<T> {
  const key = options.idempotencyKey ?? crypto.randomUUID();
  const extra = { 'Content-Type': 'application/json', 'Idempotency-Key': key };
  return send<T>(path, { method: 'POST', body: JSON.stringify(body) }, extra, options);
}
