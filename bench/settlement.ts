/**
 * Settlement benchmark: one day for N active orders on PostgreSQL.
 *   npx tsx bench/settlement.ts [100000 1000000]
 * Every order is paid once: 30-day accrual, 360-day pool share, one finished current cycle.
 * Prints orders per second, a re-run's time (it pays nothing), and this process's peak memory.
 * Uses BENCH_DATABASE_URL (default: the test database), each size in a schema of its own.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import type { AppContext } from '../server/context.ts';
import { connect } from '../server/db/connect.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { checkLedger } from '../server/ledger/ledger.ts';
import { settleCurrentCycles, settleDay } from '../server/settlement/settle.ts';
import { record } from './report.ts';
import { benchContext } from './context.ts';

const url = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const DAY = '2026-11-10';

async function admin(query: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** N orders over N/4 users: 40% 30-day, 40% 360-day (half reinvesting), 20% current. */
async function populate(ctx: AppContext, orders: number) {
  const users = Math.max(1, Math.floor(orders / 4));
  await sql`insert into users (id, subject, name, invite_code)
    select i, 'bench-' || i, 'user ' || i, 'B' || lpad(i::text, 9, '0') from generate_series(1, ${users}) i`.execute(ctx.db);
  await sql`insert into orders (user_id, product, principal, power, coefficient, status, reinvest, start_day,
      created_at, cycle_start, matures_day)
    select 1 + (i % ${users}),
      case when i % 5 < 2 then 'fixed30' when i % 5 < 4 then 'reinvest360' else 'current' end,
      (100 + (i % 1000)) * 100000000::bigint,
      case when i % 5 in (2, 3) then 5 * (100 + (i % 1000)) * 100000000::bigint else 0 end,
      case when i % 5 in (2, 3) then '1.00000000' end,
      'in_progress', i % 5 = 3, '2026-11-02', '2026-11-01T08:00:00Z',
      case when i % 5 = 4 then '2026-11-09T20:00:00Z'::timestamptz end,
      case when i % 5 < 2 then '2026-12-02'::date when i % 5 < 4 then '2027-10-28'::date end
    from generate_series(1, ${orders}) i`.execute(ctx.db);
  // The principal in the users' earning accounts, and money in the treasury and the pool.
  await sql`with e as (insert into journal_entries (kind, ref) values ('bench', 'bench') returning id),
    per_user as (select user_id, sum(principal)::bigint as amount from orders group by user_id),
    total as (select sum(amount)::bigint as amount from per_user),
    p as (insert into postings (entry_id, user_id, asset, kind, amount)
      select e.id, user_id, 'AIC', 'earning', amount from e, per_user
      union all select e.id, 0, 'AIC', 'exchange', -(total.amount + 2000000000000000) from e, total
      union all select e.id, 0, 'AIC', 'treasury', 1000000000000000 from e
      union all select e.id, 0, 'AIC', 'supercomputing_pool', 1000000000000000 from e)
    insert into accounts (user_id, asset, kind, balance, allow_negative)
      select user_id, 'AIC', 'earning', amount, false from per_user
      union all select 0, 'AIC', 'exchange', -(total.amount + 2000000000000000), true from total
      union all select 0, 'AIC', 'treasury', 1000000000000000, false
      union all select 0, 'AIC', 'supercomputing_pool', 1000000000000000, false`.execute(ctx.db);
  await sql`analyze`.execute(ctx.db);
}

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);

const rows: string[][] = [];
for (const size of sizes.length ? sizes : [100_000, 1_000_000]) {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  await admin(`create schema ${schema}`);
  const handle = await connect({ databaseUrl: url, schema, poolSize: 4 });
  try {
    await migrateToLatest(handle.db);
    const ctx = benchContext(handle.db, `${DAY}T01:00:00Z`);
    const populateStart = performance.now();
    await populate(ctx, size);
    const populateMs = performance.now() - populateStart;
    peakRss = 0;
    const start = performance.now();
    const report = await settleDay(ctx, DAY);
    const cycles = await settleCurrentCycles(ctx, new Date('2026-11-11T01:00:00Z'));
    const seconds = (performance.now() - start) / 1000;
    const rerunStart = performance.now();
    await ctx.db.deleteFrom('settlement_days').where('day', '=', DAY).execute();
    await settleDay(ctx, DAY);
    await settleCurrentCycles(ctx, new Date('2026-11-11T01:00:00Z'));
    const rerun = (performance.now() - rerunStart) / 1000;
    const income = await ctx.db.selectFrom('income').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const check = await checkLedger(ctx.db);
    rows.push([
      size.toLocaleString('en'),
      seconds.toFixed(2),
      Math.round(size / seconds).toLocaleString('en'),
      `${report.fixed + report.staticRows + cycles}`,
      String(income.n),
      rerun.toFixed(2),
      (peakRss / 1024 / 1024).toFixed(0),
      check.ok ? 'ok' : 'FAILED',
      (populateMs / 1000).toFixed(1),
    ]);
  } finally {
    await handle.close();
    await admin(`drop schema ${schema} cascade`);
  }
}
clearInterval(sampler);

const head = ['orders', 'settle s', 'orders/s', 'paid rows', 'income rows', 're-run s', 'peak RSS MB', 'ledger', 'populate s'];
console.log('\nSettlement of one day on PostgreSQL (server process memory; the work runs in the database)');
console.table(rows.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i]]))));
record(
  rows.flatMap(([orders, seconds, perSecond, , , rerun, , ledger]) => [
    { benchmark: 'settlement', figure: `one day, ${orders} orders: s (orders/s)`, value: `${seconds} (${perSecond})` },
    { benchmark: 'settlement', figure: `one day, ${orders} orders: re-run s`, value: String(rerun) },
    { benchmark: 'settlement', figure: `one day, ${orders} orders: ledger`, value: String(ledger), goal: 'ok', met: ledger === 'ok' },
  ]),
);
