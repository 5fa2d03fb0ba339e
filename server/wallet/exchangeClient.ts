import { Value } from 'typebox/value';
import {
  type CreditBody,
  type DebitBody,
  EXCHANGE_PATHS,
  ExchangeTransfer,
  type FundingBody,
  HolderBalances,
  OmnibusStatement,
  TransferList,
} from '../../contract/exchange.ts';

/** What one write or read of a transfer came to. */
export type Outcome =
  /** The exchange answered with the transfer: applied, or refused for good. */
  | { kind: 'final'; transfer: ExchangeTransfer }
  /** No answer that says what happened (a timeout, a 5xx, the network): read it by its id later. */
  | { kind: 'unknown'; detail: string }
  /** Read only: the exchange has no transfer of this id (never received). */
  | { kind: 'not_found' }
  /** The holder's access token was refused (expired or revoked): refresh it, or the consent is gone. */
  | { kind: 'unauthorized' }
  | { kind: 'consent_revoked' };

export type ExchangeClient = {
  debit(accessToken: string, body: DebitBody): Promise<Outcome>;
  credit(body: CreditBody): Promise<Outcome>;
  fund(body: FundingBody): Promise<Outcome>;
  read(transferId: string): Promise<Outcome>;
  list(range: { from: Date; to: Date; after?: string }): Promise<TransferList>;
  omnibus(range: { from: Date; to: Date }): Promise<OmnibusStatement>;
  balances(accessToken: string): Promise<HolderBalances | undefined>;
};

export type ClientOptions = {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  attempts: number;
  fetch: typeof fetch;
};

/** An exchange that did not answer in a way that says what happened. */
class ExchangeUnavailable extends Error {}

/** Full jitter: a random pause up to 100 ms × 2^attempt, at most 2 s. */
const backoff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2_000, 100 * 2 ** attempt)));

/**
 * The exchange's API over HTTP (contract/exchange.ts), the only code that talks to it: each call
 * with a timeout, retried with backoff and jitter when no answer said what happened. A write is
 * retried under the same transfer id, which the exchange applies once.
 */
export function httpExchangeClient(options: ClientOptions): ExchangeClient {
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`).toString('base64')}`;

  /** One HTTP call: its status and JSON, or undefined when no answer came in time. */
  const call = async (method: 'GET' | 'POST', path: string, auth: string, body?: unknown) => {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve(undefined);
      }, options.timeoutMs);
    });
    const request = (async () => {
      const response = await options.fetch(`${options.baseUrl}${path}`, {
        method,
        headers: { authorization: auth, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: controller.signal,
      });
      const text = await response.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      return { status: response.status, json };
    })();
    try {
      return await Promise.race([request, timeout]);
    } catch (error) {
      return { status: 0, json: { message: error instanceof Error ? error.message : String(error) } };
    } finally {
      clearTimeout(timer);
      request.catch(() => undefined);
    }
  };

  /** A call retried while its answer says nothing definite; the last answer otherwise. */
  const transferCall = async (method: 'GET' | 'POST', path: string, auth: string, body?: unknown): Promise<Outcome> => {
    let detail = '';
    for (let attempt = 0; attempt < options.attempts; attempt++) {
      if (attempt > 0) await backoff(attempt);
      const answer = await call(method, path, auth, body);
      if (!answer) {
        detail = `no answer within ${options.timeoutMs} ms`;
        continue;
      }
      if (answer.status === 200 && Value.Check(ExchangeTransfer, answer.json)) return { kind: 'final', transfer: answer.json };
      if (answer.status === 404 && method === 'GET') return { kind: 'not_found' };
      if (answer.status === 401) return { kind: 'unauthorized' };
      if (answer.status === 403) return { kind: 'consent_revoked' };
      detail = `HTTP ${answer.status}: ${JSON.stringify(answer.json)?.slice(0, 200)}`;
      // A 4xx other than those is no passing failure: trying again would get the same answer.
      if (answer.status >= 400 && answer.status < 500) break;
    }
    return { kind: 'unknown', detail };
  };

  const read = async <T>(path: string, auth: string, check: (json: unknown) => json is T): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) await backoff(attempt);
      const answer = await call('GET', path, auth);
      if (answer?.status === 200 && check(answer.json)) return answer.json;
      if (attempt + 1 >= options.attempts || (answer && answer.status >= 400 && answer.status < 500)) {
        throw new ExchangeUnavailable(`exchange ${path}: ${answer ? `HTTP ${answer.status}` : 'no answer'}`);
      }
    }
  };

  const range = (r: { from: Date; to: Date; after?: string }) =>
    new URLSearchParams({ from: r.from.toISOString(), to: r.to.toISOString(), ...(r.after ? { after: r.after } : {}) }).toString();

  return {
    debit: (accessToken, body) => transferCall('POST', EXCHANGE_PATHS.debits, `Bearer ${accessToken}`, body),
    credit: (body) => transferCall('POST', EXCHANGE_PATHS.credits, basic, body),
    fund: (body) => transferCall('POST', EXCHANGE_PATHS.fundings, basic, body),
    read: (transferId) =>
      transferCall('GET', EXCHANGE_PATHS.transfer.replace(':transferId', encodeURIComponent(transferId)), basic),
    list: (r) => read(`${EXCHANGE_PATHS.transfers}?${range(r)}`, basic, (json): json is TransferList => Value.Check(TransferList, json)),
    omnibus: (r) => read(`${EXCHANGE_PATHS.omnibus}?${range(r)}`, basic, (json): json is OmnibusStatement => Value.Check(OmnibusStatement, json)),
    balances: async (accessToken) => {
      const answer = await call('GET', EXCHANGE_PATHS.balances, `Bearer ${accessToken}`);
      return answer?.status === 200 && Value.Check(HolderBalances, answer.json) ? answer.json : undefined;
    },
  };
}
