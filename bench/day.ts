/**
 * Three whole settled days in a row for N holders: settlement (fixed accrual, the pool's output, current
 * cycles), the team's figures, rebates and lock-ups, maturities, and the proof of liabilities.
 *   npx tsx bench/day.ts [holders ...]            PostgreSQL (default 100000 1000000)
 *   BENCH_DAY_EMBEDDED="100000" npx tsx bench/day.ts   also on the embedded database (PGlite)
 *   BENCH_KEEP_SCHEMA=1    keeps each PostgreSQL schema, settled, to profile its statements
 *   BENCH_DAY_YARDSTICK=0  skips the yardstick
 * The third day is held to the goal: it is like every later day (history tables no longer empty,
 * the team's figures replacing the day before's). The second is settled without the day's income
 * notices, so the third's time over the second's is what the notices cost (slightly more: the third
 * day's tables are a day larger). Each holder has one order (40% 30-day, 40% 360-day of which half reinvest, 20% current) and
 * sits in a referral tree shaped like bench/team's (a 50-deep chain from holder 1, the rest
 * hung under earlier holders at pseudo-random places; bench/population.ts, shared with bench/api). Prints each step's time, the total, and
 * this process's peak memory; the work itself runs in the database. Sizes run in turn, so the
 * time per holder can be compared between them (growth no faster than linear is the goal). The
 * holders' proof nonces are drawn before the day (a holder gets one once, on their first day) and
 * their cost is printed apart.
 *
 * Beside the third day, on PostgreSQL, its yardstick from the same run: right after the app's
 * days, the same three days written by hand as plain SQL (bench/dayYardstick.ts) on a schema of
 * its own populated the same way, the third timed; the app's day over it is the figure that
 * compares between machines (goal: at most 2x at a million holders), and what the two third days
 * paid and proved (income by kind, lock-ups, the proof's holders and total) must agree.
 *
 * Before each day the schema is vacuumed and analysed (printed apart, not counted): real days come
 * 24 hours apart, and autovacuum, throttled by its cost limit, cleans up the day before's dead
 * rows (a million orders and accounts updated) in between, which days settled back to back do
 * not leave it time for. BENCH_DAY_VACUUM=0 settles them back to back as they come.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { connect, type Db, type DbHandle } from '../server/db/connect.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { checkLedger } from '../server/ledger/ledger.ts';
import { addDays } from '../server/platform/clock.ts';
import { benchContext, onScratchSchema } from './context.ts';
import { type DayTotals, dayTotals, totalsDiffer, type Yardstick, type YardstickDay, yardstickDays } from './dayYardstick.ts';
import { FIRST_DAY, populate, type Settled, settleOne, stepsText } from './population.ts';
import { type Figure, int, report } from './report.ts';

const url = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const embedded = (process.env.BENCH_DAY_EMBEDDED ?? '').split(' ').map(Number).filter((n) => n > 0);
/**
 * Three days in a row: the first writes into empty history tables; the second, without the day's
 * income notices, and the third, with them, are days like any later one. BENCH_DAY_COUNT settles
 * more in a row (the third is still the one held to the goal), to see how a day grows with its
 * history: each day writes into partitions of its own (server/income/days.ts), so it should not.
 */
const DAY_COUNT = Math.max(3, Number(process.env.BENCH_DAY_COUNT ?? 3) || 3);
const DAYS = Array.from({ length: DAY_COUNT }, (_, i) => addDays(FIRST_DAY, i));
const WITHOUT_NOTICES = 1;
const HELD = 2;
/** The day's time with its income notices over the time without them, at most (issue 20). */
const NOTICES_GOAL = 1.2;
const GOALS = { postgres: { holders: 1_000_000, seconds: 30 }, pglite: { holders: 100_000, seconds: 60 } };
const PEAK_GOAL_MIB = 500;
/** The held day's time over its yardstick's, at most, at the goal's size (issue 45). */
const YARDSTICK_GOAL = 2;
const YARDSTICK = process.env.BENCH_DAY_YARDSTICK !== '0';

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);

type DayFigures = { populateS: number; noncesS: number; days: Settled[]; peakMiB: number; ledger: boolean; totals: DayTotals };

/** The days on `db`, migrated to the latest: populated, settled in a row, the ledger checked. */
async function oneDay(db: Db, dbKind: DbHandle['kind'], holders: number): Promise<DayFigures> {
  const ctx = { ...benchContext(db, `${DAYS[0]}T23:00:00Z`), dbKind };
  const { populateS, noncesS } = await populate(ctx, holders);
  peakRss = 0;
  const days: Settled[] = [];
  for (const [i, day] of DAYS.entries()) days.push(await settleOne(ctx, day, i !== WITHOUT_NOTICES));
  // PGlite runs in this thread and may starve the sampler: take one more sample at the end.
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const check = await checkLedger(ctx.db);
  const totals = await dayTotals(ctx.db, DAYS[HELD] as string);
  return { populateS, noncesS, days, peakMiB: peakRss / 2 ** 20, ledger: check.ok, totals };
}

/** The PostgreSQL settings the day is most sensitive to, printed beside its figures. */
async function serverSettings(): Promise<string> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ name: string; setting: string }>(
      `select name, current_setting(name) as setting from unnest(array['server_version', 'shared_buffers', 'max_wal_size', 'checkpoint_timeout']) as name`,
    );
    return rows.map((r) => `${r.name} ${r.setting}`).join(', ');
  } finally {
    await admin.end();
  }
}

/** A pool of four: the rebates and the proof run parts side by side on connections of their own. */
const onPostgres = (holders: number) => onScratchSchema(url, 'day', (db) => oneDay(db, 'postgres', holders), 4);

async function onPglite(holders: number) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-day-'));
  const handle = await connect({ dataDir: dir });
  try {
    await migrateToLatest(handle.db);
    return await oneDay(handle.db, handle.kind, holders);
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The held day beside its yardstick (bench/dayYardstick.ts): the yardstick's time and steps, the
 * ratio (held to its goal at the goal's size), and whether the two days paid and proved the same.
 */
function yardstickFigures(of: string, steady: Settled, app: DayFigures, hand: Yardstick, atGoalSize: boolean): Figure[] {
  const held = hand.days[HELD] as YardstickDay;
  const ratio = steady.totalS / held.totalS;
  const differ = totalsDiffer(app.totals, hand.totals);
  return [
    { benchmark: 'day', figure: `${of}: yardstick: hand-written SQL of the same day s`, value: held.totalS.toFixed(2) },
    { benchmark: 'day', figure: `${of}: yardstick steps s (one at a time)`, value: stepsText(held.steps) },
    { benchmark: 'day', figure: `${of}: yardstick days 1 to ${HELD + 1} s`, value: hand.days.map((d) => d.totalS.toFixed(2)).join(' / ') },
    {
      benchmark: 'day',
      figure: `${of}: day ${HELD + 1} / yardstick`,
      value: `${ratio.toFixed(2)}x`,
      ...(atGoalSize ? { goal: `<= ${YARDSTICK_GOAL}x`, met: ratio <= YARDSTICK_GOAL } : {}),
    },
    {
      benchmark: 'day',
      figure: `${of}: day ${HELD + 1}'s income by kind, lock-ups and proof, app vs yardstick`,
      value: differ.length === 0 ? 'agree' : `differ: ${differ.join('; ')}`,
      goal: 'agree',
      met: differ.length === 0,
    },
    { benchmark: 'day', figure: `${of}: yardstick ledger`, value: hand.ledger ? 'ok' : 'FAILED', goal: 'ok', met: hand.ledger },
    {
      benchmark: 'day',
      figure: `${of}: mean path length (the yardstick's team figures and rebates unnest every path)`,
      value: hand.meanPath.toFixed(1),
    },
  ];
}

const figures: Figure[] = [];
const perHolder: number[] = [];
const runs: [keyof typeof GOALS, number][] = [
  ...(sizes.length ? sizes : [100_000, 1_000_000]).map((n) => ['postgres', n] as [keyof typeof GOALS, number]),
  ...embedded.map((n) => ['pglite', n] as [keyof typeof GOALS, number]),
];
for (const [kind, holders] of runs) {
  const load = loadavg().map((n) => n.toFixed(2)).join(' ');
  const result = kind === 'postgres' ? await onPostgres(holders) : await onPglite(holders);
  // Right after the app's days, in the same run: the figure to compare with is the ratio.
  const hand = kind === 'postgres' && YARDSTICK ? await yardstickDays(url, holders, DAYS.slice(0, HELD + 1)) : null;
  const of = `${kind}, ${int(holders)} holders`;
  const goal = GOALS[kind];
  const atGoalSize = holders === goal.holders;
  // The third day is like the days after it (history tables no longer empty): it is the figure
  // held to the goal and compared between sizes.
  const steady = result.days[HELD] as Settled;
  const without = result.days[WITHOUT_NOTICES] as Settled;
  if (kind === 'postgres') perHolder.push((steady.totalS / holders) * 1e6);
  result.days.forEach((settled, i) => {
    const which = `day ${i + 1} (${DAYS[i]}${i === WITHOUT_NOTICES ? ', without income notices' : ''})`;
    figures.push(
      {
        benchmark: 'day',
        figure: `${of}: ${which} whole day s`,
        value: settled.totalS.toFixed(2),
        ...(atGoalSize && settled === steady ? { goal: `<= ${goal.seconds}`, met: settled.totalS <= goal.seconds } : {}),
      },
      { benchmark: 'day', figure: `${of}: ${which} steps s (DAY_STEPS, two at a time)`, value: stepsText(settled.steps) },
      { benchmark: 'day', figure: `${of}: ${which} rebate rows`, value: int(settled.rebates) },
      {
        benchmark: 'day',
        figure: `${of}: ${which} database CPU s (every PostgreSQL process on this machine)`,
        value: kind === 'pglite' || settled.databaseCpuS === null ? 'n/a' : settled.databaseCpuS.toFixed(1),
      },
      {
        benchmark: 'day',
        figure: `${of}: ${which} vacuum and analyze before it s (not counted)`,
        value: settled.vacuumS === null ? 'none (BENCH_DAY_VACUUM=0)' : settled.vacuumS.toFixed(1),
      },
    );
  });
  if (hand) figures.push(...yardstickFigures(of, steady, result, hand, atGoalSize));
  const growth = steady.totalS / without.totalS;
  figures.push(
    {
      benchmark: 'day',
      figure: `${of}: day ${HELD + 1} with income notices / day ${WITHOUT_NOTICES + 1} without`,
      value: `${growth.toFixed(2)}x`,
      goal: `<= ${NOTICES_GOAL}x`,
      met: growth <= NOTICES_GOAL,
    },
    kind === 'postgres'
      ? {
          benchmark: 'day',
          figure: `${of}: peak RSS of this process`,
          value: `${int(result.peakMiB)} MiB`,
          goal: `<= ${PEAK_GOAL_MIB} MiB`,
          met: result.peakMiB <= PEAK_GOAL_MIB,
        }
      : // PGlite is the database, in this process: its memory is the database's, not the day's.
        { benchmark: 'day', figure: `${of}: peak RSS of this process, the database included`, value: `${int(result.peakMiB)} MiB` },
    { benchmark: 'day', figure: `${of}: ledger`, value: result.ledger ? 'ok' : 'FAILED', goal: 'ok', met: result.ledger },
    { benchmark: 'day', figure: `${of}: populate s (not counted)`, value: result.populateS.toFixed(1) },
    { benchmark: 'day', figure: `${of}: proof nonces for every holder, first day only s (not counted)`, value: result.noncesS.toFixed(1) },
    { benchmark: 'day', figure: `${of}: load average at start`, value: load },
  );
}
if (runs.some(([kind]) => kind === 'postgres')) {
  figures.push({ benchmark: 'day', figure: 'postgres: settings', value: await serverSettings() });
}
if (perHolder.length > 1) {
  const growth = (perHolder.at(-1) as number) / (perHolder[0] as number);
  figures.push({
    benchmark: 'day',
    figure: 'postgres: time per holder, largest size / smallest',
    value: `${growth.toFixed(2)}x (${perHolder.map((us) => `${us.toFixed(1)} µs`).join(' / ')})`,
    goal: '<= 1.0x (linear)',
    met: growth <= 1.05,
  });
}
clearInterval(sampler);
report('One whole settled day', figures);
