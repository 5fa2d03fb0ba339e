/**
 * The platform the day and API benchmarks share: holders in a referral tree (a 50-deep chain from
 * holder 1, the rest hung under earlier holders at pseudo-random places, like bench/team's), one
 * order each with the money behind it (bench/orders.ts), their proof nonces, and days settled as
 * the scheduler settles them; the CPU PostgreSQL's processes and a server process use. For the
 * API benchmark, a database of its own so populated, with three settled days, kept between runs
 * with BENCH_REUSE.
 *
 * Before each day the database is vacuumed and analysed (timed apart): real days come 24 hours
 * apart, and autovacuum, throttled by its cost limit, cleans up the day before's dead rows (a
 * million orders and accounts updated) in between, which days settled back to back do not leave
 * it time for. BENCH_DAY_VACUUM=0 settles them back to back as they come.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { sql } from 'kysely';
import pg from 'pg';
import type { AppContext } from '../server/context.ts';
import { connect, type Db } from '../server/db/connect.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { ensureNonces } from '../server/proof/build.ts';
import { settleCurrentCycles, settleDay } from '../server/settlement/settle.ts';
import { addDays, DAY_MS } from '../server/platform/clock.ts';
import { benchContext } from './context.ts';
import { insertOrdersAndFund } from './orders.ts';

/** Holders 2..CHAIN + 1 hang one under the other below holder 1: the deepest teams. */
export const CHAIN = 50;
/** The first settled day; the benches settle the days after it one by one. */
export const FIRST_DAY = '2026-11-10';
/** Days the API benchmark's platform has settled: the third is like any later day. */
export const SETTLED_DAYS = 3;
const VACUUM_BETWEEN_DAYS = process.env.BENCH_DAY_VACUUM !== '0';

/** Holder i's inviter: the chain first, then a multiplicative hash over earlier holders (0: none). */
function inviterOf(id: number): number {
  if (id === 1) return 0;
  if (id <= CHAIN + 1) return id - 1;
  return 1 + (Number((BigInt(id) * 2_654_435_761n) % 4_294_967_296n) % (id - 1));
}

/** Users with inviter and ancestor path, 20,000 at a time; paths walk the parent array. */
async function insertUsers(db: Db, holders: number): Promise<void> {
  const parent = new Int32Array(holders + 1);
  for (let id = 1; id <= holders; id++) parent[id] = inviterOf(id);
  const pathOf = (id: number) => {
    const up: number[] = [];
    for (let p = parent[id] as number; p !== 0; p = parent[p] as number) up.push(p);
    return `{${up.reverse().join(',')}}`;
  };
  const batch = 20_000;
  for (let from = 1; from <= holders; from += batch) {
    const ids: number[] = [];
    for (let id = from; id < Math.min(holders + 1, from + batch); id++) ids.push(id);
    await sql`insert into users (id, subject, name, invite_code, inviter_id, path, bound_at)
      select id, 'day-' || id, 'holder ' || id, 'D' || lpad(id::text, 9, '0'), nullif(inviter, 0), path::bigint[],
        case when inviter <> 0 then '2026-11-01T00:00:00Z'::timestamptz end
      from unnest(${ids}::bigint[], ${ids.map((id) => parent[id])}::bigint[], ${ids.map(pathOf)}::text[])
        as t(id, inviter, path)`.execute(db);
  }
  await sql`select setval(pg_get_serial_sequence('users', 'id'), ${holders})`.execute(db);
}

/**
 * The holders, their orders and money, then their proof nonces. A holder's nonce is drawn once,
 * the first day they hold anything: on a typical day only the day's new holders need one, so the
 * nonces are timed apart, as the first day's cost.
 */
export async function populate(ctx: AppContext, holders: number): Promise<{ populateS: number; noncesS: number }> {
  const populateStart = performance.now();
  await insertUsers(ctx.db, holders);
  await insertOrdersAndFund(ctx.db, holders, holders);
  const populateS = (performance.now() - populateStart) / 1000;
  const noncesStart = performance.now();
  await ensureNonces(ctx.db);
  return { populateS, noncesS: (performance.now() - noncesStart) / 1000 };
}

/**
 * Seconds of CPU every PostgreSQL process on this machine has used: the live ones' own, and the
 * postmaster's children's that have exited (it reaps them). On a shared, noisy machine the
 * database's CPU moves less than wall time, so two versions compare by it too. Null when no
 * PostgreSQL runs here (BENCH_DATABASE_URL elsewhere) or /proc is not Linux's.
 */
export function databaseCpuS(): number | null {
  let ticks = 0;
  let seen = false;
  for (const pid of existsSync('/proc') ? readdirSync('/proc').filter((name) => /^\d+$/.test(name)) : []) {
    const stat = cpuOf(pid);
    if (stat?.command !== 'postgres') continue;
    seen = true;
    ticks += stat.ownTicks + stat.childTicks;
  }
  return seen ? ticks / CLOCK_TICKS : null;
}

/** Seconds of CPU process `pid` has used itself (user and system), null once it is gone. */
export function processCpuS(pid: number): number | null {
  const stat = cpuOf(String(pid));
  return stat ? stat.ownTicks / CLOCK_TICKS : null;
}

/** sysconf(_SC_CLK_TCK): 100 on every Linux PostgreSQL runs on here. */
const CLOCK_TICKS = 100;

/** A process's command and CPU ticks from /proc/<pid>/stat: its own, and its reaped children's. */
function cpuOf(pid: string): { command: string; ownTicks: number; childTicks: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone meanwhile
  }
  const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  // Fields after the command: state is field 3; utime 14, stime 15, cutime 16, cstime 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i] ?? 0));
  return { command, ownTicks: (utime ?? 0) + (stime ?? 0), childTicks: (cutime ?? 0) + (cstime ?? 0) };
}

export type Settled = {
  totalS: number;
  steps: Record<string, number>;
  rebates: number;
  vacuumS: number | null;
  /** CPU seconds of the database's processes while the day settled (databaseCpuS). */
  databaseCpuS: number | null;
};

/** A day's steps and their seconds, as the report prints them. */
export const stepsText = (steps: Record<string, number>) =>
  Object.entries(steps)
    .map(([name, ms]) => `${name} ${(ms / 1000).toFixed(2)}`)
    .join(', ');

/** The moment the scheduler settles `day`: an hour after it ends. */
const settledAt = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS + 3_600_000);

/** Moves the clock to when `day` is settled and vacuums first (unless BENCH_DAY_VACUUM=0): seconds it took. */
export async function vacuumBefore(ctx: AppContext, day: string): Promise<number | null> {
  ctx.clock.set(settledAt(day));
  if (!VACUUM_BETWEEN_DAYS) return null;
  const start = performance.now();
  await sql`vacuum (analyze)`.execute(ctx.db);
  return (performance.now() - start) / 1000;
}

/**
 * Analyses the tables autovacuum would have analysed by now (its rule: more rows changed since
 * the last analysis than its threshold plus its share of the table), when the database runs with
 * autovacuum off, as this machine's CI configuration has it; a platform in service has it on.
 * For the API benchmark, between its runs: a run of buys fills the newest postings partition,
 * and the runs after it would otherwise plan from statistics taken before it (a partition one
 * holder's 153 rows when analysed, 64,000 rows of 200 holders after the buys: a read by holder
 * then scanned the whole partition). Returns the tables analysed.
 */
export async function analyzeAsAutovacuumWould(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const setting = await client.query<{ on: boolean }>(`select current_setting('autovacuum') = 'on' as on`);
    if (setting.rows[0]?.on) return [];
    const { rows } = await client.query<{ name: string }>(`
      select s.relid::regclass::text as name
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.n_mod_since_analyze > current_setting('autovacuum_analyze_threshold')::int
        + current_setting('autovacuum_analyze_scale_factor')::float8 * greatest(c.reltuples, 0)`);
    for (const { name } of rows) await client.query(`analyze ${name}`);
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

/** Settles `day` as the scheduler would an hour after it ends: the day, then the current cycles due. */
export async function settleVacuumed(ctx: AppContext, day: string, incomeNotices: boolean): Promise<Omit<Settled, 'vacuumS'>> {
  const asOf = settledAt(day);
  const cpuBefore = databaseCpuS();
  const start = performance.now();
  const report = await settleDay(ctx, day, { incomeNotices });
  const cyclesStart = performance.now();
  await settleCurrentCycles(ctx, asOf);
  const end = performance.now();
  const cpuAfter = databaseCpuS();
  const steps = { ...(report.steps ?? {}), 'current cycles': Math.round(end - cyclesStart) };
  const databaseCpu = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
  return { totalS: (end - start) / 1000, steps, rebates: report.rebates, databaseCpuS: databaseCpu };
}

/** Vacuums, then settles `day` (vacuumBefore, settleVacuumed). */
export async function settleOne(ctx: AppContext, day: string, incomeNotices: boolean): Promise<Settled> {
  const vacuumS = await vacuumBefore(ctx, day);
  return { ...(await settleVacuumed(ctx, day, incomeNotices)), vacuumS };
}

/** A populated database: its address, whether it was built now, and how to let it go. */
export type Platform = { url: string; holders: number; builtS: number | null; release: () => Promise<void> };

/** Written last by a build: a database without it (or of other migrations) is built again. */
const DONE_TABLE = 'bench_population';

const urlOf = (base: string, database: string) => {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.href;
};

/**
 * A database of `holders` holders with SETTLED_DAYS settled days, on `base`'s server. Without
 * `reuse` it is built under a name of its own and dropped on release. With it, the database
 * bench_api_pop_<holders> is kept: built when missing or incomplete, else reused; the run then
 * works on a copy of it (dropped on release), so every run starts from the same platform.
 */
export async function populatedDatabase(base: string, holders: number, reuse: boolean): Promise<Platform> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    if (!reuse) {
      const name = `bench_api_pop_${holders}_${randomBytes(4).toString('hex')}`;
      await admin.query(`create database ${name}`);
      const builtS = await build(urlOf(base, name), holders).catch(async (error: unknown) => {
        await dropDatabase(base, name);
        throw error;
      });
      return { url: urlOf(base, name), holders, builtS, release: () => dropDatabase(base, name) };
    }
    const kept = `bench_api_pop_${holders}`;
    let builtS: number | null = null;
    if (!(await isComplete(admin, base, kept, holders))) {
      await admin.query(`drop database if exists ${kept} with (force)`);
      await admin.query(`create database ${kept}`);
      builtS = await build(urlOf(base, kept), holders);
    }
    const copy = `bench_api_run_${holders}_${randomBytes(4).toString('hex')}`;
    await copyDatabase(admin, kept, copy);
    // BENCH_KEEP_RUN: the copy as the runs left it, to read its plans by hand.
    const release = process.env.BENCH_KEEP_RUN === '1' ? async () => console.log(`kept ${copy}`) : () => dropDatabase(base, copy);
    return { url: urlOf(base, copy), holders, builtS, release };
  } finally {
    await admin.end();
  }
}

/** Populates the empty database at `url`, settles its days, vacuums it and marks it done: seconds. */
async function build(url: string, holders: number): Promise<number> {
  const start = performance.now();
  // Four connections: the rebates and the proof run parts side by side on connections of their own.
  const handle = await connect({ databaseUrl: url, poolSize: 4 });
  try {
    await migrateToLatest(handle.db);
    const ctx = benchContext(handle.db, `${FIRST_DAY}T23:00:00Z`);
    await populate(ctx, holders);
    for (let i = 0; i < SETTLED_DAYS; i++) await settleOne(ctx, addDays(FIRST_DAY, i), true);
    // As a platform is between two days: last day's dead rows cleaned up, statistics fresh.
    await sql`vacuum (analyze)`.execute(handle.db);
    await sql`create table ${sql.table(DONE_TABLE)} as
      select ${holders}::integer as holders, (select max(name) from kysely_migration) as migration, now() as built_at`.execute(handle.db);
  } finally {
    await handle.close();
  }
  return (performance.now() - start) / 1000;
}

/** Whether `name` exists, holds `holders` holders, and was built by today's migrations (brought to them now). */
async function isComplete(admin: pg.Client, base: string, name: string, holders: number): Promise<boolean> {
  const { rows } = await admin.query('select 1 from pg_database where datname = $1', [name]);
  if (rows.length === 0) return false;
  const handle = await connect({ databaseUrl: urlOf(base, name), poolSize: 1 });
  try {
    const { rows: marked } = await sql<{ done: string | null }>`select to_regclass(${DONE_TABLE}) as done`.execute(handle.db);
    if (!marked[0]?.done) return false;
    const { rows: done } = await sql<{ holders: number; migration: string }>`select holders, migration from ${sql.table(DONE_TABLE)}`.execute(handle.db);
    if (done[0]?.holders !== holders) return false;
    // A migration added since the build would find a platform it was not written for.
    await migrateToLatest(handle.db);
    const { rows: latest } = await sql<{ name: string }>`select max(name) as name from kysely_migration`.execute(handle.db);
    return latest[0]?.name === done[0].migration;
  } finally {
    await handle.close();
  }
}

/**
 * `from` copied file by file (no WAL of every page), statistics included. The copy needs `from`
 * to have no connections: an autovacuum worker may hold one for a moment.
 */
async function copyDatabase(admin: pg.Client, from: string, to: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [from]);
    try {
      await admin.query(`create database ${to} template ${from} strategy file_copy`);
      return;
    } catch (error) {
      if (attempt >= 10) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

async function dropDatabase(base: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}
