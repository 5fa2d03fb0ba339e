/**
 * npm run bench: runs each benchmark in turn and prints its figures. Not a test: nothing here
 * passes or fails on a number. Sizes: BENCH_ORDERS (default "100000 1000000") and
 * BENCH_MEMBERS (default 1000000). Needs PostgreSQL at BENCH_DATABASE_URL (default: the test db).
 */
import { spawnSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';

const runs: [string, string[]][] = [
  ['bench/settlement.ts', (process.env.BENCH_ORDERS ?? '100000 1000000').split(' ')],
  ['bench/team.ts', [process.env.BENCH_MEMBERS ?? '1000000']],
  ['bench/merkle.ts', [process.env.BENCH_HOLDERS ?? '1000000']],
];
console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`);
for (const [script, args] of runs) {
  console.log(`\n# ${script} ${args.join(' ')}`);
  const result = spawnSync(process.execPath, ['--max-old-space-size=8000', '--import', 'tsx', script, ...args], {
    stdio: 'inherit',
  });
  if (result.status !== 0) console.log(`(${script} exited with ${result.status})`);
}
