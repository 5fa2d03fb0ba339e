import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';

/**
 * READ_STATEMENT_TIMEOUT_MS: the server's pool opens its connections with `statement_timeout`
 * set (the startup option `-c statement_timeout=N`, no round trip), so a statement a request
 * runs outside a transaction (a holder's read, the one-statement buy) is cancelled by
 * PostgreSQL (57014) rather than holding its connection while others queue. What rightly runs
 * long is lifted to no limit, by `set local` only, so nothing outlives a transaction on the
 * server connection (a transaction pooler stays safe):
 * - every transaction (settlement's steps, migrations, a request's writes): its `begin` carries
 *   `set local statement_timeout = 0` in the same round trip;
 * - a statement outside a transaction run inside `withoutReadTimeout` (the scheduler, the
 *   transfer worker, the operators' calls such as the ledger check, which reads every posting):
 *   it is sent in a transaction of its own that lifts the limit.
 * PGlite runs one statement at a time in the process and has no pool to protect: the limit is
 * not set there, and `withoutReadTimeout` changes nothing.
 */
const unlimited = new AsyncLocalStorage<true>();

/** Runs `work` (and everything it starts) with no statement timeout on the server's pool. */
export function withoutReadTimeout<T>(work: () => T): T {
  return unlimited.run(true, work);
}

/** The startup option that gives a connection the read limit. */
export const readTimeoutOption = (ms: number) => `-c statement_timeout=${ms}`;

const BEGIN = /^\s*(begin|start\s+transaction)\b/i;
const LIFT = 'set local statement_timeout = 0';

type Send = (config: unknown, values?: unknown, callback?: unknown) => Promise<pg.QueryResult | pg.QueryResult[]>;

/** A simple query of several statements answers one result each: the caller sent one, and gets its own. */
const first = (result: pg.QueryResult | pg.QueryResult[]) => (Array.isArray(result) ? (result[0] as pg.QueryResult) : result);

/** Makes `client`, whose connection has the read limit, lift it where it must (see above). */
export function liftReadTimeout(client: pg.PoolClient): void {
  const send = client.query.bind(client) as unknown as Send;
  const alone = async (text: string, values: unknown) => {
    await send(`begin; ${LIFT}`);
    try {
      const result = await send(text, values);
      await send('commit');
      return result;
    } catch (error) {
      await send('rollback').catch(() => {});
      throw error;
    }
  };
  (client as unknown as { query: Send }).query = (config, values, callback) => {
    // Only the promise form with text, as Kysely sends; anything else goes as it came.
    const plain = typeof config === 'string' && (values === undefined || Array.isArray(values)) && callback === undefined;
    if (!plain || client.getTransactionStatus() !== 'I') return send(config, values, callback);
    if (BEGIN.test(config) && !(values as unknown[] | undefined)?.length) return send(`${config}; ${LIFT}`).then(first);
    if (unlimited.getStore()) return alone(config, values);
    return send(config, values);
  };
}
