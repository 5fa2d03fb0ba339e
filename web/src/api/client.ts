import { messageKeyForCode, messageKeyForHttpStatus } from '../../../contract/errors.ts';
import type { EnvelopeOf } from '../../../contract/envelope.ts';
import { currentLanguage, i18next } from '../i18n/index.ts';
import { storage } from '../lib/storage.ts';
import { showToast } from '../lib/toast.ts';
import { sessionStore } from '../session/store.ts';

/** The configured API host; empty means the same origin that served the app. */
const HOST = (import.meta.env.VITE_API_HOST as string | undefined) ?? '';
export const TOAST_MS = 2000;
export const LOGOUT_DELAY_MS = 1000;

/** A refused call: the envelope code and the translated message the user saw. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
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

/** Spec section 4: a 401 clears the signed-in keys, then after 1 s goes home and reloads. */
function forceLogout(): void {
  if (forcedLogout) return;
  forcedLogout = true;
  sessionStore.clear();
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

async function handle<T>(response: Response | null, options: CallOptions, sentToken: string | null): Promise<T> {
  let envelope: EnvelopeOf<T> | null = null;
  if (response) {
    envelope = (await response.json().catch(() => null)) as EnvelopeOf<T> | null;
  }
  if (response?.ok && envelope && envelope.code === 0) return envelope.data;

  const code = envelope && typeof envelope.code === 'number' ? envelope.code : (response?.status ?? 0);
  const key = envelope ? messageKeyForCode(code) : messageKeyForHttpStatus(code);
  // The catalogue's translation first; the server's msg only where we have no text of our own.
  const translated = i18next.exists(key) ? i18next.t(key) : (envelope?.msg ?? i18next.t('err.generic'));
  if (code === 401 && staleSession(sentToken)) throw new ApiError(code, translated);
  if (code === 401) forceLogout();
  if (options.toast !== false) showError(translated);
  throw new ApiError(code, translated);
}

async function send<T>(path: string, init: RequestInit, extra: Record<string, string>, options: CallOptions) {
  const sentToken = storage.get('token');
  const response = await fetch(`${HOST}${path}`, {
    ...init,
    headers: headers(extra),
    signal: options.signal ?? null,
  }).catch(() => null);
  return handle<T>(response, options, sentToken);
}

export function apiGet<T>(path: string, params?: Params, options: CallOptions = {}): Promise<T> {
  const query = encode(params);
  return send<T>(query ? `${path}?${query}` : path, {}, {}, options);
}

/** POST with a JSON body; every POST carries an Idempotency-Key (one per user action). */
export function apiPost<T>(path: string, body: object, options: CallOptions = {}): Promise<T> {
  const key = options.idempotencyKey ?? crypto.randomUUID();
  const extra = { 'Content-Type': 'application/json', 'Idempotency-Key': key };
  return send<T>(path, { method: 'POST', body: JSON.stringify(body) }, extra, options);
}
