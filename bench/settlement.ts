/**
 * Settlement benchmark: one day for N active orders on PostgreSQL.
 *   npx tsx bench/settlement.ts [100000 1000000]
 * Every order is paid once: 30-day accrual, 360-day pool share, one finished current cycle.
 * Prints orders per second, a re-run's time (it pays nothing), this process's peak memory, and
 * the yardstick: the same three income steps as hand-written SQL (bench/settlementYardstick.ts)
 * on a second schema populated the same way, with the ratio of the app's income steps to it.
 * Uses BENCH_DATABASE_URL (default: the test database), each size in a schema of its own.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import pg from 'pg';
import type { AppContext } from '../server/context.ts';
import { connect } from '../server/db/connect.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { checkLedger } from '../server/ledger/ledger.ts';
import { settleCurrentCycles, settleDay } from '../server/settlement/settle.ts';
import { earnParams } from '../server/earn/params.ts';
import { type Figure, record } from './report.ts';
import { benchContext } from './context.ts';
import { insertOrdersAndFund } from './orders.ts';
import { handWrittenDay, yardstickRates } from './settlementYardstick.ts';

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
  await insertOrdersAndFund(ctx.db, orders, users);
}

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);

const AS_OF = new Date('2026-11-11T01:00:00Z');

/** Runs `work` on a freshly populated schema of its own, dropped afterwards. */
async function onFreshSchema<T>(size: number, work: (ctx: AppContext) => Promise<T>): Promise<T & { populateS: number }> {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  await admin(`create schema ${schema}`);
  const handle = await connect({ databaseUrl: url, schema, poolSize: 4 });
  try {
    await migrateToLatest(handle.db);
    const ctx = benchContext(handle.db, `${DAY}T01:00:00Z`);
    const populateStart = performance.now();
    await populate(ctx, size);
    const populateS = (performance.now() - populateStart) / 1000;
    return { ...(await work(ctx)), populateS };
  } finally {
    await handle.close();
    await admin(`drop schema ${schema} cascade`);
  }
}

/** The app's day: settleDay (income steps, team, maturities, proof) and the current cycles. */
async function appDay(ctx: AppContext) {
  peakRss = 0;
  // Settled as the scheduler would, after the day ended: a day is refused before its end.
  ctx.clock.set(AS_OF);
  const start = performance.now();
  const report = await settleDay(ctx, DAY);
  const cyclesStart = performance.now();
  const cycles = await settleCurrentCycles(ctx, AS_OF);
  const end = performance.now();
  const steps = report.steps ?? {};
  // The day pays the cycles that ended on it (steps.current); the call after it, those since.
  const incomeS = ((steps.fixed ?? 0) + (steps.static ?? 0) + (steps.current ?? 0) + (end - cyclesStart)) / 1000;
  const rerunStart = performance.now();
  await ctx.db.deleteFrom('settlement_days').where('day', '=', DAY).execute();
  await settleDay(ctx, DAY);
  await settleCurrentCycles(ctx, AS_OF);
  const rerunS = (performance.now() - rerunStart) / 1000;
  const paid = await sql<{ n: bigint; total: bigint }>`
    select count(*) as n, coalesce(sum(amount), 0)::bigint as total from income`.execute(ctx.db);
  const check = await checkLedger(ctx.db);
  return {
    dayS: (end - start) / 1000,
    incomeS,
    steps,
    paidRows: report.fixed + report.staticRows + report.current + cycles,
    incomeRows: Number(paid.rows[0]?.n ?? 0n),
    total: paid.rows[0]?.total ?? 0n,
    rerunS,
    peakMiB: peakRss / 1024 / 1024,
    ledger: check.ok,
  };
}

/** The yardstick: the same three income steps as hand-written SQL (bench/settlementYardstick.ts). */
async function yardstickDay(ctx: AppContext) {
  const rates = yardstickRates(await earnParams(ctx.db, ctx.config.earn, DAY), DAY);
  const start = performance.now();
  const done = await handWrittenDay(ctx.db, DAY, AS_OF, rates);
  return { seconds: (performance.now() - start) / 1000, ...done };
}

const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
const rows: Record<string, string>[] = [];
const figures: Figure[] = [];
for (const size of sizes.length ? sizes : [100_000, 1_000_000]) {
  const loadBefore = load();
  const app = await onFreshSchema(size, appDay);
  const hand = await onFreshSchema(size, yardstickDay);
  const ratio = app.incomeS / hand.seconds;
  const same = app.total === hand.total && app.paidRows === hand.rows;
  const orders = size.toLocaleString('en');
  const stepText = Object.entries(app.steps).map(([name, ms]) => `${name} ${(ms / 1000).toFixed(2)}`).join(', ');
  rows.push({
    orders,
    'day s (all steps)': app.dayS.toFixed(2),
    'income steps s': app.incomeS.toFixed(2),
    'hand-written SQL s': hand.seconds.toFixed(2),
    ratio: `${ratio.toFixed(2)}x`,
    'same rows and total': same ? 'yes' : `NO (${app.paidRows}/${app.total} vs ${hand.rows}/${hand.total})`,
    're-run s': app.rerunS.toFixed(2),
    'peak RSS MB': app.peakMiB.toFixed(0),
    ledger: app.ledger ? 'ok' : 'FAILED',
    'populate s': app.populateS.toFixed(1),
    load: loadBefore,
  });
  console.log(`steps at ${orders} orders (s): ${stepText}, current cycles ${(app.incomeS - ((app.steps.fixed ?? 0) + (app.steps.static ?? 0)) / 1000).toFixed(2)}`);
  const of = `one day, ${orders} orders`;
  figures.push(
    { benchmark: 'settlement', figure: `${of}: all steps s (orders/s)`, value: `${app.dayS.toFixed(2)} (${Math.round(size / app.dayS).toLocaleString('en')})` },
    { benchmark: 'settlement', figure: `${of}: income steps s vs hand-written SQL s`, value: `${app.incomeS.toFixed(2)} vs ${hand.seconds.toFixed(2)} = ${ratio.toFixed(2)}x`, goal: '<= 3x', met: ratio <= 3 },
    { benchmark: 'settlement', figure: `${of}: same rows and total as the hand-written SQL`, value: same ? 'yes' : 'NO', goal: 'yes', met: same },
    { benchmark: 'settlement', figure: `${of}: re-run s`, value: app.rerunS.toFixed(2) },
    { benchmark: 'settlement', figure: `${of}: ledger`, value: app.ledger ? 'ok' : 'FAILED', goal: 'ok', met: app.ledger },
  );
}
clearInterval(sampler);

console.log('\nSettlement of one day on PostgreSQL (server process memory; the work runs in the database)');
console.table(rows);
record(figures);
