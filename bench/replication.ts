/**
 * npm run bench replication: what a synchronous standby costs the buy. On the cluster
 * deploy/patroni/ ships (server/reliability/cluster.ts: two Patroni hosts on this machine, a
 * synchronous standby, strict), pgbench sends the buy's one statement (earn_buy, as the route
 * does) for BENCH_REPLICATION_SECONDS (default 10) at BENCH_REPLICATION_CLIENTS (default 16)
 * connections, in turn, BENCH_REPLICATION_ROUNDS times (default 3): with synchronous commit,
 * each commit waiting for the standby; with commits acknowledged by the primary alone (the
 * database's synchronous_commit = local, the standby still streaming); and on one server, the
 * standby stopped and nothing asking for it. Goal: synchronous >= 0.7x of one server (the
 * median of the rounds' ratios). Both servers share this machine's cores, which a standby on a
 * host of its own would not.
 */
import { loadavg } from 'node:os';
import pg from 'pg';
import { connect } from '../server/db/connect.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { DatabaseCluster, type Member } from '../server/reliability/cluster.ts';
import { benchContext } from './context.ts';
import { benchUserRange, pgbench } from './pgbench.ts';
import { FIRST_DAY, populate } from './population.ts';
import { type Figure, report } from './report.ts';

const SECONDS = Number(process.env.BENCH_REPLICATION_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_REPLICATION_CLIENTS ?? 16);
const ROUNDS = Number(process.env.BENCH_REPLICATION_ROUNDS ?? 3);
const HOLDERS = 2_000;

const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');

async function sqlOn(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const cluster = await DatabaseCluster.start();
try {
  await sqlOn(cluster.url(), 'create database bench');
  const url = cluster.url('postgres', 'bench');
  const handle = await connect({ databaseUrl: url, poolSize: 4 });
  try {
    await migrateToLatest(handle.db);
    await populate(benchContext(handle.db, `${FIRST_DAY}T08:00:00Z`), HOLDERS);
  } finally {
    await handle.close();
  }
  const range = await benchUserRange(url);
  const buys = () => pgbench(url, 'buyFunction', CLIENTS, SECONDS, range);
  const commitMode = (mode: 'on' | 'local') => sqlOn(cluster.url(), `alter database bench set synchronous_commit = ${mode}`);

  /** Patroni's cluster-wide settings, as `patronictl edit-config` changes them. */
  const patroniConfig = async (settings: object) => {
    const leader = await cluster.leader();
    const response = await fetch(`http://127.0.0.1:${leader.apiPort}/config`, { method: 'PATCH', body: JSON.stringify(settings) });
    if (!response.ok) throw new Error(`PATCH /config: ${response.status} ${await response.text()}`);
  };
  const runs = { synchronous: [] as number[], primaryOnly: [] as number[], alone: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    await commitMode('on');
    runs.synchronous.push(await buys());
    await commitMode('local');
    runs.primaryOnly.push(await buys());
    // One server: the standby stopped, and nothing asks for it (else every commit would wait).
    const leader = await cluster.leader();
    const standby = cluster.members.find((m) => m.name !== leader.name) as Member;
    await patroniConfig({ synchronous_mode: false, synchronous_mode_strict: false });
    cluster.killPatroni(standby);
    cluster.killPostgres(standby);
    runs.alone.push(await buys());
    cluster.startPatroni(standby);
    await patroniConfig({ synchronous_mode: true, synchronous_mode_strict: true });
    await cluster.waitUntilSynchronous();
    const [sync, local, alone] = [runs.synchronous, runs.primaryOnly, runs.alone].map((r) => Math.round(r.at(-1) as number));
    console.log(`round ${round + 1}: synchronous ${sync}, primary alone ${local}, one server ${alone} buys/s (load ${load()})`);
  }

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const ratios = (over: number[]) => runs.synchronous.map((value, i) => value / (over[i] as number));
  const text = (values: number[], digits = 0) => values.map((v) => v.toFixed(digits)).join(' / ');
  const versusOne = median(ratios(runs.alone));
  const figures: Figure[] = [
    { benchmark: 'replication', figure: `buys/s, synchronous standby (${CLIENTS} connections, each round)`, value: text(runs.synchronous) },
    { benchmark: 'replication', figure: 'buys/s, commits acknowledged by the primary alone', value: text(runs.primaryOnly) },
    { benchmark: 'replication', figure: 'buys/s, one server, the standby stopped', value: text(runs.alone) },
    { benchmark: 'replication', figure: 'synchronous / primary alone, each round', value: text(ratios(runs.primaryOnly), 2) },
    {
      benchmark: 'replication',
      figure: `synchronous / one server (median of ${ROUNDS} rounds: ${text(ratios(runs.alone), 2)})`,
      value: `${versusOne.toFixed(2)}x`,
      goal: '>= 0.7x',
      met: versusOne >= 0.7,
    },
  ];
  report(`Replication (load average ${load()})`, figures);
} finally {
  await cluster.stop();
}
