/**
 * Team benchmark on PostgreSQL: a tree of N members (default 1,000,000) with a 50-deep chain,
 * each holding a 360-day order; measures the day's team figures and rebate settlement, and
 * invite-records for the busiest inviter and for random ones.
 *   npx tsx bench/team.ts [members]
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { UNIT } from '../contract/money.ts';
import { connect } from '../server/db/connect.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { checkLedger } from '../server/ledger/ledger.ts';
import { settleDay } from '../server/settlement/settle.ts';
import { inviteRecords } from '../server/team/repository.ts';
import { buildTree, insertTree } from '../server/test/population.ts';
import { record } from './report.ts';
import { benchContext } from './context.ts';

const url = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const members = Number(process.argv[2] ?? 1_000_000);
const DAY = '2026-11-10';
const schema = `team_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: url });
await admin.connect();
await admin.query(`create schema ${schema}`);
const handle = await connect({ databaseUrl: url, schema, poolSize: 4 });
const time = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const start = performance.now();
  const result = await work();
  return [result, (performance.now() - start) / 1000];
};
try {
  await migrateToLatest(handle.db);
  const ctx = benchContext(handle.db, `${DAY}T23:00:00Z`);
  const tree = buildTree(members, 50, (id) => BigInt(10 + (id % 90)) * UNIT);
  const depth = tree.reduce((max, m) => Math.max(max, m.path.length), 0);
  const avgDepth = tree.reduce((sum, m) => sum + m.path.length, 0) / members;
  const [, populate] = await time(() => insertTree(handle.db, tree, '2026-11-02'));
  const children = new Map<bigint, number>();
  for (const m of tree) if (m.inviter) children.set(m.inviter, (children.get(m.inviter) ?? 0) + 1);
  const busiest = [...children].sort((a, b) => b[1] - a[1])[0] as [bigint, number];
  tree.length = 0;

  const [report, settle] = await time(() => settleDay(ctx, DAY));
  const [, page] = await time(() => inviteRecords(handle.db, busiest[0], { limit: 20 }));
  const samples = 200;
  const [, many] = await time(async () => {
    for (let i = 0; i < samples; i++) await inviteRecords(handle.db, BigInt(1 + ((i * 104_729) % members)), { limit: 20 });
  });
  const check = await checkLedger(handle.db);
  const rebates = await handle.db.selectFrom('income').select((eb) => eb.fn.countAll().as('n')).where('kind', '=', 'rebate').executeTakeFirstOrThrow();
  console.log(`\nTeam benchmark on PostgreSQL, ${members.toLocaleString('en')} members (max depth ${depth}, mean ${avgDepth.toFixed(1)})`);
  console.table({
    'populate s': populate.toFixed(1),
    'settle day s (static + team + rebates + lock-ups)': settle.toFixed(2),
    'static rows': report.staticRows,
    'rebate rows': String(rebates.n),
    [`invite-records busiest (${busiest[1]} children) ms`]: (page * 1000).toFixed(1),
    'invite-records random, mean ms': ((many / samples) * 1000).toFixed(2),
    ledger: check.ok ? 'ok' : 'FAILED',
  });
  const of = `${members.toLocaleString('en')} members`;
  record([
    { benchmark: 'team', figure: `${of}: settle day s`, value: settle.toFixed(2) },
    { benchmark: 'team', figure: `${of}: invite-records busiest ms`, value: (page * 1000).toFixed(1) },
    { benchmark: 'team', figure: `${of}: invite-records random, mean ms`, value: ((many / samples) * 1000).toFixed(2) },
    { benchmark: 'team', figure: `${of}: ledger`, value: check.ok ? 'ok' : 'FAILED', goal: 'ok', met: check.ok },
  ]);
} finally {
  await handle.close();
  await admin.query(`drop schema ${schema} cascade`);
  await admin.end();
}
