import type { Config } from './config.ts';
import type { Db } from './db/connect.ts';
import type { Clock } from './platform/clock.ts';

/** What every domain's routes and services receive: configuration, database and clock. */
export type AppContext = {
  config: Config;
  db: Db;
  dbKind: 'postgres' | 'pglite';
  clock: Clock;
};
