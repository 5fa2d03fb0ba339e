import { loadConfig } from '../server/config.ts';
import type { AppContext } from '../server/context.ts';
import type { Db } from '../server/db/connect.ts';
import { fixedClock } from '../server/platform/clock.ts';

/** The app's context for a benchmark: PostgreSQL, no scheduler, the clock frozen at `at`. */
export const benchContext = (db: Db, at: string): AppContext => ({
  config: { ...loadConfig({}), settlementIntervalMs: 0 },
  db,
  dbKind: 'postgres',
  clock: fixedClock(new Date(at)),
});
