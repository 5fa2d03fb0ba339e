/**
 * npm run bench [-- name ...]: runs benchmarks in turn, each printing its own figures, then one
 * table of them all (benchmark, figure, value, goal, met?). Not a test: nothing here passes or
 * fails on a number. Names: settlement, team, merkle, api, web (the default set), team-large
 * (the team bench at 1,000,000 members) and day (a whole day for 100,000 and 1,000,000 holders;
 * BENCH_DAY_HOLDERS, BENCH_DAY_EMBEDDED): both opt-in, they take minutes. Sizes: BENCH_ORDERS (default
 * "100000 1000000"), BENCH_MEMBERS (team, default 100000), BENCH_HOLDERS (merkle, default
 * 1000000); api and web read their own variables
 * (see bench/api.ts, bench/web.ts). Needs PostgreSQL at BENCH_DATABASE_URL (default: the test db).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { readFigures, tableRow } from './report.ts';

const BENCHES: Record<string, [string, string[]]> = {
  settlement: ['bench/settlement.ts', (process.env.BENCH_ORDERS ?? '100000 1000000').split(' ')],
  team: ['bench/team.ts', [process.env.BENCH_MEMBERS ?? '100000']],
  'team-large': ['bench/team.ts', ['1000000']],
  merkle: ['bench/merkle.ts', [process.env.BENCH_HOLDERS ?? '1000000']],
  day: ['bench/day.ts', (process.env.BENCH_DAY_HOLDERS ?? '100000 1000000').split(' ')],
  quarters: ['bench/quarters.ts', [process.env.BENCH_QUARTER_HOLDERS ?? '20000']],
  notices: ['bench/notices.ts', [process.env.BENCH_NOTICE_HOLDERS ?? '2000']],
  replication: ['bench/replication.ts', []],
  api: ['bench/api.ts', []],
  web: ['bench/web.ts', []],
};
const DEFAULT = ['settlement', 'team', 'merkle', 'api', 'web'];

const names = process.argv.slice(2);
const unknown = names.filter((n) => !(n in BENCHES));
if (unknown.length) {
  console.error(`unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}
const machine = () =>
  `${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, ` +
  `load average ${loadavg().map((n) => n.toFixed(2)).join(' ')}`;
console.log(`machine: ${machine()}`);

const temp = mkdtempSync(join(tmpdir(), 'bench-run-'));
const results = join(temp, 'figures.jsonl');
try {
  for (const name of names.length ? names : DEFAULT) {
    const [script, args] = BENCHES[name] as [string, string[]];
    console.log(`\n# ${name}: ${script} ${args.join(' ')}`);
    const result = spawnSync(process.execPath, ['--max-old-space-size=8000', '--import', 'tsx', script, ...args], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_RESULTS: results },
    });
    if (result.status !== 0) console.log(`(${script} exited with ${result.status})`);
  }
  const figures = (() => {
    try {
      return readFigures(readFileSync(results, 'utf8'));
    } catch {
      return [];
    }
  })();
  console.log(`\nAll figures (machine: ${machine()})`);
  console.table(figures.map(tableRow));
} finally {
  rmSync(temp, { recursive: true, force: true });
}
