/**
 * Every PostgreSQL advisory lock key the server takes, named in one table so that no two uses
 * share a key by accident. The numbers are part of the deployment: processes of two versions
 * run side by side during a rolling update and must agree on them, so a key never changes once
 * shipped; a new lock takes a new number.
 */
export const LOCKS = {
  /** Migrations: every process migrating the same database takes it. */
  migration: 7_004_201,
  /** The demo data, seeded once per database. */
  seed: 7_201_001,
  /** A day's proof of liabilities (second key: the day's number). */
  proofBuild: 7_201_009,
  /** Every change to the invitation tree. */
  tree: 7_201_013,
  /** The income table's day partitions: made and merged. */
  incomeDays: 7_201_024,
  /** The postings' day partitions: made, merged and opened. */
  ledgerDays: 7_201_025,
  /** The swap of the team figures' table. */
  teamStatsSwap: 7_201_160,
  /** One operator's funding asks (second key: the operator). */
  funding: 7_201_500,
  /** Each step of a settled day (second key: the day's number). */
  settlementStep: {
    fixed: 7_201_100,
    static: 7_201_101,
    team: 7_201_102,
    release: 7_201_103,
    mature: 7_201_104,
    confirm: 7_201_105,
    current: 7_201_106,
    notify: 7_201_107,
    rebates0: 7_201_108,
    rebates1: 7_201_109,
    teamStats: 7_201_110,
    uplines: 7_201_111,
  },
} as const;

/** Every key of the table, for the check that none is used twice. */
export const allLockKeys = (): number[] =>
  Object.values(LOCKS).flatMap((value) => (typeof value === 'number' ? [value] : Object.values(value)));
