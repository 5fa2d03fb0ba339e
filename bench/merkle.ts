/**
 * Proof-of-liabilities benchmark: the Merkle sum tree for N holders (default 1,000,000).
 *   npx tsx bench/merkle.ts [holders]
 * Each phase runs in a process of its own, so each peak memory is its own:
 *   pure    N synthetic leaves hashed and folded chunk by chunk, as the server does
 *   memory  the same leaves with every level of the tree held in memory, for comparison
 *   db      the real build on PostgreSQL (BENCH_DATABASE_URL, default the test database) from
 *           N holders' ledger accounts: nonces, leaves, tree, stored levels; a second day; and
 *           holders fetching their proofs
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import {
  BALANCE_KINDS,
  type Balances,
  buildLevels,
  CHUNK_SIZE,
  ChunkedTreeBuilder,
  hashLeaf,
  type TreeNode,
} from '../contract/merkle.ts';
import { formatUnits, UNIT } from '../contract/money.ts';
import { buildProofs, ensureNonces, nodeSha256 } from '../server/proof/build.ts';
import { inclusionProof } from '../server/proof/repository.ts';
import { type Figure, int, report } from './report.ts';
import { benchContext, onScratchSchema } from './context.ts';

type Result = { figures: [string, string][] };

const holders = Number(process.argv[2] ?? 1_000_000);
const phase = process.argv[3];
const DAY = '2026-11-10';
const url = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';

const peakMiB = () => `${int(process.resourceUsage().maxRSS / 1024)} MiB`;
const seconds = (start: number) => `${((performance.now() - start) / 1000).toFixed(2)} s`;
/** Wall time, and this process's own CPU time: on a shared machine the second is the steadier. */
function timer() {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(cpu);
    return `${seconds(wall)} (cpu ${((used.user + used.system) / 1e6).toFixed(2)} s)`;
  };
}

/** Holder i's synthetic balances: a wallet for everyone, an order for every other one. */
function balancesOf(i: number): Balances {
  const balances = Object.fromEntries(BALANCE_KINDS.map((k) => [k, 0n])) as Balances;
  balances.wallet = BigInt((i % 1000) + 1) * UNIT;
  if (i % 2 === 0) balances.earning = BigInt((i % 777) + 1) * UNIT;
  return balances;
}

/** Calls back with each synthetic leaf node, nonces drawn a chunk at a time. */
function eachLeaf(count: number, take: (node: TreeNode) => void): void {
  for (let start = 0; start < count; start += CHUNK_SIZE) {
    const nonces = randomBytes(32 * CHUNK_SIZE);
    for (let i = start; i < Math.min(count, start + CHUNK_SIZE); i++) {
      const nonce = nonces.subarray(32 * (i - start), 32 * (i - start + 1));
      take(hashLeaf({ nonce, userId: BigInt(i + 1), asset: 'AIC', balances: balancesOf(i) }, nodeSha256));
    }
  }
}

async function pure(): Promise<Result> {
  const elapsed = timer();
  const builder = new ChunkedTreeBuilder(nodeSha256);
  eachLeaf(holders, (node) => builder.add(node));
  const tree = builder.finish();
  return {
    figures: [
      ['pure build, chunk by chunk (hash leaves + tree)', elapsed()],
      ['pure build, chunk by chunk: peak RSS', peakMiB()],
      ['total', `${formatUnits(tree?.root.sum ?? 0n)} AIC`],
    ],
  };
}

async function memory(): Promise<Result> {
  const elapsed = timer();
  const leaves: TreeNode[] = [];
  eachLeaf(holders, (node) => leaves.push(node));
  const levels = buildLevels(leaves, nodeSha256);
  return {
    figures: [
      ['whole tree in memory (hash leaves + tree)', elapsed()],
      ['whole tree in memory: peak RSS', peakMiB()],
      ['levels', String(levels.length)],
    ],
  };
}

/** The build on PostgreSQL, on a scratch schema; a pool of four: the build stages its leaves on two more connections. */
function db(): Promise<Result> {
  return onScratchSchema(url, 'merkle', async (scratch) => {
    const ctx = benchContext(scratch, `${DAY}T23:00:00Z`);
    let start = performance.now();
    await sql`insert into accounts (user_id, asset, kind, balance)
      select g, 'AIC', 'wallet', ((g - 1) % 1000 + 1)::bigint * ${UNIT} from generate_series(1, ${holders}) g`.execute(ctx.db);
    await sql`insert into accounts (user_id, asset, kind, balance)
      select g, 'AIC', 'earning', ((g - 1) % 777 + 1)::bigint * ${UNIT} from generate_series(1, ${holders}) g where g % 2 = 1`.execute(ctx.db);
    await sql`analyze accounts`.execute(ctx.db);
    const populate = seconds(start);
    let elapsed = timer();
    const nonces = await ensureNonces(ctx.db);
    const nonceTime = elapsed();
    elapsed = timer();
    const first = await buildProofs(ctx, DAY);
    const firstTime = elapsed();
    elapsed = timer();
    const second = await buildProofs(ctx, '2026-11-11');
    const secondTime = elapsed();
    const split = (builds: typeof first) => {
      const aicBuild = builds?.find((b) => b.asset === 'AIC');
      return `leaves (SQL) ${((aicBuild?.leavesMs ?? 0) / 1000).toFixed(1)} s + tree ${((aicBuild?.treeMs ?? 0) / 1000).toFixed(1)} s`;
    };
    const samples = 200;
    start = performance.now();
    for (let i = 0; i < samples; i++) await inclusionProof(ctx.db, BigInt(1 + ((i * 104_729) % holders)), 'AIC');
    const perProof = ((performance.now() - start) / samples).toFixed(1);
    const size = async (table: string) =>
      (
        // proof_leaves is partitioned by day: its own size is 0, its partitions hold the rows.
        await sql<{ n: bigint }>`select (pg_total_relation_size(${table}) + coalesce((select sum(pg_total_relation_size(relid))
          from pg_partition_tree(${table}) where relid <> ${table}::regclass), 0))::bigint as n`.execute(ctx.db)
      ).rows[0]?.n ?? 0n;
    const mib = (bytes: bigint) => `${int(Number(bytes) / 2 ** 20)} MiB`;
    const aic = first?.find((b) => b.asset === 'AIC');
    return {
      figures: [
        [`populate ${int(holders)} holders' accounts (SQL)`, populate],
        [`nonces for ${int(nonces)} new holders`, nonceTime],
        ['PostgreSQL build, day 1 (leaves + tree + stored levels, both assets)', firstTime],
        ['  of which AIC', split(first)],
        ['PostgreSQL build, day 2 (nonces exist)', secondTime],
        ['  of which AIC', split(second)],
        [`proof download, mean of ${samples} holders`, `${perProof} ms`],
        ['PostgreSQL build: peak RSS of the server process', peakMiB()],
        ['holders / total', `${int(aic?.holders ?? 0)} / ${formatUnits(aic?.total ?? 0n)} AIC (ledger ${formatUnits(aic?.ledgerTotal ?? 0n)})`],
        ['storage: leaves for 2 days', mib(await size('proof_leaves'))],
        ['storage: stored levels for 2 days', mib(await size('proof_nodes'))],
        ['storage: nonces', mib(await size('proof_nonces'))],
      ],
    };
  }, 4);
}

const PHASES = { pure, memory, db } as const;

if (phase && phase in PHASES) {
  console.log(JSON.stringify(await PHASES[phase as keyof typeof PHASES]()));
} else {
  const figures: Figure[] = [];
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  for (const name of Object.keys(PHASES)) {
    const child = spawnSync(process.execPath, ['--max-old-space-size=8000', '--import', 'tsx', 'bench/merkle.ts', String(holders), name], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 24,
    });
    const line = child.stdout.trim().split('\n').at(-1) ?? '';
    if (child.status !== 0 || !line.startsWith('{')) {
      figures.push({ benchmark: 'merkle', figure: `${name} phase`, value: `failed (${child.status})` });
      continue;
    }
    for (const [figure, value] of (JSON.parse(line) as Result).figures) figures.push({ benchmark: 'merkle', figure, value });
  }
  figures.push({ benchmark: 'merkle', figure: 'load average at start (1/5/15 min)', value: load });
  report(`Proof of liabilities, ${int(holders)} holders`, figures);
}
