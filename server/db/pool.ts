import { performance } from 'node:perf_hooks';
import type pg from 'pg';

/** What the metrics and the load shedding read of a process's PostgreSQL pool. */
export type PoolWatch = {
  /** Requests waiting for a connection now. */
  waiting(): number;
  /** Milliseconds the longest-waiting of them has waited (0: none waits). */
  oldestWaitMs(): number;
  /** Connections open, and of those idle. */
  total(): number;
  idle(): number;
  /** Called with the seconds each checkout waited for its connection (failed ones too). */
  onWait(listener: (seconds: number) => void): void;
};

const watched = new WeakMap<object, PoolWatch>();

/**
 * Watches `pool`, the pool behind `db`: its figures, and the time each checkout waits (Kysely
 * takes every connection through `pool.connect()`).
 */
export function watchPool(db: object, pool: pg.Pool): void {
  const listeners: ((seconds: number) => void)[] = [];
  const connect = pool.connect.bind(pool) as (callback?: unknown) => unknown;
  // The checkouts under way, in the order they began (a Map keeps insertion order): the first is
  // the one that has waited longest.
  const pending = new Map<object, number>();
  const timed = async () => {
    const started = performance.now();
    const token = {};
    pending.set(token, started);
    try {
      return await (connect() as Promise<pg.PoolClient>);
    } finally {
      pending.delete(token);
      const seconds = (performance.now() - started) / 1000;
      for (const listener of listeners) listener(seconds);
    }
  };
  const oldestWaitMs = () => {
    for (const started of pending.values()) return performance.now() - started;
    return 0;
  };
  // The callback form (pg's own) goes as it came, untimed.
  pool.connect = ((callback?: unknown) => (callback === undefined ? timed() : connect(callback))) as typeof pool.connect;
  watched.set(db, {
    waiting: () => pool.waitingCount,
    oldestWaitMs,
    total: () => pool.totalCount,
    idle: () => pool.idleCount,
    onWait: (listener) => listeners.push(listener),
  });
}

/** The pool behind `db`; undefined on PGlite, which has none. */
export function poolOf(db: object): PoolWatch | undefined {
  return watched.get(db);
}
