/**
 * Merging a past quarter's weeks of `income` into one partition (mergePastIncome), on
 * PostgreSQL: how long the merge takes beside its yardstick, the same rows copied by hand in the
 * key's order into a plain table with the same indexes; and a holder's reads before and after.
 *
 *   BENCH_DATABASE_URL=postgres://... npx tsx bench/quarters.ts [holders, default 20000]
 */
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { quarterOf, QUARTER_WEEKS } from '../server/db/partitions.ts';
import { rewardLog } from '../server/earn/logs.ts';
import { ensureIncomeDay, mergePastIncome } from '../server/income/days.ts';
import { addDays } from '../server/platform/clock.ts';
import { onScratchSchema } from './context.ts';
import { type Figure, int, report } from './report.ts';

const url = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const holders = Number(process.argv[2] ?? 20_000);
const quarter = quarterOf('2026-01-15');
const seconds = (ms: number) => (ms / 1000).toFixed(2);

/** A holder's first page of their reward log, newest first, 200 times over random holders: ms each. */
async function readPages(db: Parameters<typeof rewardLog>[0]): Promise<number> {
  const begun = performance.now();
  for (let i = 0; i < 200; i++) await rewardLog(db, BigInt(1 + Math.floor(Math.random() * holders)), { limit: 20 });
  return (performance.now() - begun) / 200;
}

await onScratchSchema(url, 'quarters', async (db) => {
  const load = loadavg().map((n) => n.toFixed(2)).join(' ');
  // Each week's days in partitions of their own, merged into the week's two weeks later, as the
  // scheduler's housekeeping does (timed apart); the quarter's last week is past only when the
  // quarter is, so its days go straight into the quarter.
  let weeksMs = 0;
  for (let week = 0; week < QUARTER_WEEKS; week++) {
    const monday = addDays(quarter, 7 * week);
    for (let day = 0; day < 7; day++) await ensureIncomeDay(db, addDays(monday, day));
    await sql`
      insert into income (user_id, order_id, day, kind, amount, inputs)
      select u, u * 10, ${monday}::date + d, k, 100000000, '{"rate": "0.01"}'
      from generate_series(1, ${holders}) u, generate_series(0, 6) d, unnest(array['static', 'rebate']) k
      order by 1, 2, 3, 4`.execute(db);
    if (week === QUARTER_WEEKS - 1) continue;
    const begun = performance.now();
    await mergePastIncome(db, addDays(monday, 14));
    weeksMs += performance.now() - begun;
  }
  await sql`vacuum analyze income`.execute(db);
  const rows = Number((await sql<{ n: string }>`select count(*) as n from income`.execute(db)).rows[0]?.n ?? 0);
  const before = await readPages(db);

  // The yardstick: the same rows, in the key's order, into a plain table with income's indexes.
  let begun = performance.now();
  await sql`create table income_copy (like income including defaults including constraints including indexes)`.execute(db);
  await sql`insert into income_copy select * from income order by user_id, order_id, day, kind`.execute(db);
  const yardstickMs = performance.now() - begun;
  await sql`drop table income_copy`.execute(db);

  begun = performance.now();
  const made = await mergePastIncome(db, addDays(quarter, 7 * (QUARTER_WEEKS + 2)));
  const mergeMs = performance.now() - begun;
  const after = await readPages(db);
  const of = `${int(holders)} holders, ${int(rows)} lines in ${QUARTER_WEEKS} weeks`;
  const figures: Figure[] = [
    { benchmark: 'quarters', figure: `${of}: merged into`, value: made.join(', ') || 'nothing' },
    { benchmark: 'quarters', figure: `${of}: merge s`, value: seconds(mergeMs) },
    { benchmark: 'quarters', figure: `${of}: yardstick, the same rows copied by hand s`, value: seconds(yardstickMs) },
    { benchmark: 'quarters', figure: `${of}: merge / yardstick`, value: `${(mergeMs / yardstickMs).toFixed(2)}x`, goal: '<= 1.5x', met: mergeMs <= 1.5 * yardstickMs },
    { benchmark: 'quarters', figure: `${of}: merge µs per line`, value: ((mergeMs * 1000) / rows).toFixed(2) },
    { benchmark: 'quarters', figure: `${of}: a week's days merged into the week, mean s`, value: seconds(weeksMs / (QUARTER_WEEKS - 1)) },
    { benchmark: 'quarters', figure: `${of}: a reward log's first page, 12 weeks and 7 days then the quarter, ms`, value: `${before.toFixed(2)} then ${after.toFixed(2)}` },
    { benchmark: 'quarters', figure: 'load average at start', value: load },
  ];
  report('Merging a quarter of weeks (PostgreSQL)', figures);
});
