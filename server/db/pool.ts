import { performance } from 'node:perf_hooks';
import type pg from 'pg';

/** What the metrics and the load shedding read of a process's PostgreSQL pool. */
export type PoolWatch = {
  /** Requests waiting for a connection now. */
  waiting(): number;
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
  const timed = async () => {
    const started = performance.now();
    try {
      return await (connect() as Promise<pg.PoolClient>);
    } finally {
      const seconds = (performance.now() - started) / 1000;
      for (const listener of listeners) listener(seconds);
    }
  };
  // The callback form (pg's own) goes as it came, untimed.
  pool.connect = ((callback?: unknown) => (callback === undefined ? timed() : connect(callback))) as typeof pool.connect;
  watched.set(db, {
    waiting: () => pool.waitingCount,
    total: () => pool.totalCount,
    idle: () => pool.idleCount,
    onWait: (listener) => listeners.push(listener),
  });
}

/** The pool behind `db`; undefined on PGlite, which has none. */
export function poolOf(db: object): PoolWatch | undefined {
  return watched.get(db);
}
