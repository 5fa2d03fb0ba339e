import type { Kysely, Transaction } from 'kysely';
import { sqlStateOf } from './failures.ts';

/**
 * SQLSTATEs that mean "this transaction lost a race, run it again": a serialization failure
 * (40001) and a deadlock (40P01). PostgreSQL rolled the transaction back whole, so running the
 * same work again is safe; PGlite runs one transaction at a time and never raises them.
 */
const RETRYABLE = new Set(['40001', '40P01']);

export function isRetryableConflict(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 4) return false;
  if (RETRYABLE.has(sqlStateOf(error) ?? '')) return true;
  return isRetryableConflict(error.cause, depth + 1);
}

const CONFLICT_ATTEMPTS = 8;

const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** Math.min(attempt, 6)));

/**
 * Runs `attempt` again after a short random pause when it lost a race (deadlock or
 * serialization failure), so that the racers do not meet again.
 */
export async function retryConflicts<T>(attempt: () => Promise<T>, attempts = CONFLICT_ATTEMPTS): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= attempts || !isRetryableConflict(error)) throw error;
      await pause(tries);
    }
  }
}

/**
 * Runs `work` in one transaction, again from the start when it lost a race. Every transaction
 * of the server goes through here, so no race answers 500.
 */
export function transact<DB, T>(
  db: Kysely<DB>,
  work: (trx: Transaction<DB>) => Promise<T>,
  attempts = CONFLICT_ATTEMPTS,
): Promise<T> {
  return retryConflicts(() => db.transaction().execute(work), attempts);
}
