import { spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../contract/paths.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import { DAY_MS, fixedClock } from '../platform/clock.ts';
import { seedDemoData } from '../platform/seed.ts';
import { CLUSTER_PASSWORD, clusterProgramsMissing, DatabaseCluster, type Member } from '../reliability/cluster.ts';
import { settleDue } from '../settlement/settle.ts';
import { commandsAs } from '../test/commands.ts';
import { moveIntoWallet } from '../test/population.ts';
import { bearer, post, signIn } from '../test/signIn.ts';
import { connect, type DbHandle } from './connect.ts';
import { migrateToLatest } from './migrate.ts';

/**
 * pgBackRest on the database cluster as deploy/ ships it: the cluster of
 * server/reliability/cluster.ts (Patroni from deploy/patroni/aic-earn.yml, archiving on) archives
 * into one repository both hosts use, each host configured by the shipped
 * deploy/pgbackrest/pgbackrest-cluster.conf (its paths and port replaced). The repository is a
 * local folder here, standing in for the shared S3-compatible one the file names (still
 * encrypted). A full backup from the primary, a failover (kill -9 of the primary's postmaster),
 * money moved on the new primary, its WAL archived on the new timeline into the same repository,
 * a differential backup from the new primary; then the real restore drill restores the full
 * backup from before the failover to the latest state, across the timeline, with the verifier
 * green and every move in it. The backup unit's primary-only condition is run on both hosts.
 */
const ROOT = new URL('../..', import.meta.url).pathname;
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const STANZA = 'aic-earn';
const DRILL = join(ROOT, 'deploy/restore-drill.sh');
const CONFIG = 'deploy/pgbackrest/pgbackrest-cluster.conf';
const PRIMARY_ONLY = 'deploy/systemd/aic-earn-backup@.service.d/primary-only.conf';

const onPath = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const missing = [...clusterProgramsMissing(), ...(onPath('pgbackrest') ? [] : ['pgbackrest'])];
// In CI nothing is skipped: a missing program fails the test below with what to install.
const skip = missing.length > 0 && !process.env.CI;
if (skip) console.warn(`backupCluster.test.ts skipped: needs ${missing.join(', ')}`);

/** As root, the cluster's processes are the postgres user's (cluster.ts): so are pgBackRest's. */
const asRoot = process.getuid?.() === 0;

const { run, ok } = commandsAs('postgres');

/** A folder of the cluster's, its processes' own. */
function folder(path: string): string {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  if (asRoot) chownSync(path, Number(ok('id', ['-u', 'postgres'])), Number(ok('id', ['-g', 'postgres'])));
  return path;
}

/** Where a host's pgBackRest configuration is: PGBACKREST_CONFIG of its PostgreSQL, --config of the test's commands. */
const configOf = (member: Member) => join(member.dir, 'pgbackrest.conf');

/**
 * The shipped cluster configuration for one host: the shared repository a folder of the test's
 * cluster, Patroni's data directory and socket this host's. Each line replaced must be in the
 * shipped file, so the test fails rather than quietly testing another configuration.
 */
function hostConfig(member: Member): string {
  let text = readFileSync(join(ROOT, CONFIG), 'utf8');
  const replace = (pattern: RegExp, by: string) => {
    expect(text, `${pattern} in ${CONFIG}`).toMatch(pattern);
    text = text.replace(pattern, by);
  };
  replace(/^repo1-type=s3$/m, 'repo1-type=posix');
  replace(/^repo1-path=.*$/m, `repo1-path=${join(dirname(member.dir), 'repo')}`);
  replace(/^repo1-s3-.*\n/gm, '');
  // Encrypted as shipped, with the test's own key.
  replace(/^repo1-cipher-pass=.*$/m, 'repo1-cipher-pass=backup-cluster-test');
  replace(/^pg1-path=\/var\/lib\/postgresql\/15\/aic-earn$/m, `pg1-path=${join(member.dir, 'data')}`);
  replace(/^pg1-port=5432$/m, `pg1-port=${member.pgPort}`);
  replace(/^pg1-socket-path=.*$/m, `pg1-socket-path=${member.dir}`);
  // Each host's own logs and locks, as on two machines.
  replace(/^\[global\]$/m, `[global]\nlog-path=${join(member.dir, 'pgbackrest/log')}\nlock-path=${join(member.dir, 'pgbackrest/lock')}`);
  // No <...> left to fill in outside the comments.
  expect(text).not.toMatch(/^[^#\n]*<[^>\n]+>/m);
  return text;
}

/** The primary-only drop-in's condition, run as systemd would (as postgres) against `member`'s PostgreSQL. */
function primaryOnly(member: Member): number | null {
  const line = /^ExecCondition=\/bin\/sh -c '(.*)'$/m.exec(readFileSync(join(ROOT, PRIMARY_ONLY), 'utf8'))?.[1];
  expect(line, `${PRIMARY_ONLY}: ExecCondition=/bin/sh -c '...'`).toBeDefined();
  // systemd's "$$" is "$"; the test's PostgreSQL programs and socket, by libpq's variables.
  const script = (line as string).replaceAll('$$', '$').replaceAll('/usr/lib/postgresql/15/bin/', `${PG_BIN}/`);
  return run('/bin/sh', ['-c', script], { asPg: true, env: { PGHOST: member.dir, PGPORT: String(member.pgPort), PGUSER: 'postgres' } }).status;
}

describe.skipIf(skip)('pgBackRest on the cluster: backups and WAL go on after a failover', () => {
  let cluster: DatabaseCluster | undefined;
  let handle: DbHandle | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  const clock = fixedClock(new Date('2026-11-01T08:00:00Z'));

  const pgbackrest = (member: Member, ...args: string[]) =>
    ok('pgbackrest', [`--config=${configOf(member)}`, `--stanza=${STANZA}`, ...args], { asPg: true });
  const journalCount = async () =>
    Number((await sql<{ n: string }>`select count(*)::text as n from journal_entries`.execute((handle as DbHandle).db)).rows[0]?.n);

  /** The app in this process, on the cluster through HAProxy (the schema and demo data made the first time). */
  async function openApp(): Promise<AppContext> {
    handle = await connect({ databaseUrl: (cluster as DatabaseCluster).url('aic_earn', 'aic_earn'), poolSize: 3 });
    await migrateToLatest(handle.db);
    await seedDemoData(handle.db);
    const ctx: AppContext = {
      config: { ...loadConfig({}), webDir: '/nonexistent', settlementIntervalMs: 0 },
      db: handle.db,
      dbKind: handle.kind,
      clock,
    };
    app = await buildApp(ctx, { logger: false });
    await app.ready();
    return ctx;
  }
  async function closeApp(): Promise<void> {
    await app?.close();
    await handle?.close();
    app = undefined;
    handle = undefined;
  }
  const running = () => app as NonNullable<typeof app>;

  beforeAll(async () => {
    if (missing.length > 0) throw new Error(`CI must run the cluster's backup test: install ${missing.join(', ')}`);
    cluster = await DatabaseCluster.start({
      archiving: (member) => {
        folder(join(dirname(member.dir), 'repo'));
        folder(join(member.dir, 'pgbackrest'));
        folder(join(member.dir, 'pgbackrest/log'));
        folder(join(member.dir, 'pgbackrest/lock'));
        writeFileSync(configOf(member), hostConfig(member), { mode: 0o644 });
        // archive_command names no configuration: it finds this one as it would /etc/pgbackrest.conf.
        return { PGBACKREST_CONFIG: configOf(member) };
      },
    });
    folder(join(cluster.dir, 'scratch'));
    const admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    await admin.query(`create role aic_earn login password '${CLUSTER_PASSWORD}'`);
    await admin.query('create database aic_earn owner aic_earn');
    await admin.end();
  });

  afterAll(async () => {
    await closeApp();
    await cluster?.stop();
  });

  it('backs up from the primary, archives on after a failover, and the drill restores the latest state', async () => {
    const live = cluster as DatabaseCluster;
    const first = await live.leader();
    const standby = live.members.find((m) => m.name !== first.name) as Member;
    // Once, from the primary: the stanza in the shared repository, and archiving end to end.
    pgbackrest(first, 'stanza-create');
    pgbackrest(first, 'check');

    // Money moving through the app: holders transfer in, buy, and days settle (the verifier's work).
    const ctx = await openApp();
    let inviter: string | undefined;
    for (const name of ['root', 'alice', 'bob']) {
      const session = await signIn(running(), { name });
      expect((await post(running(), PATHS.transferIn, session.token, { asset: 'AIC', amount: '5000' })).json().code).toBe(0);
      if (inviter) await post(running(), PATHS.bindInviter, session.token, { inviteCode: inviter });
      inviter = (await running().inject({ url: PATHS.userInfo, headers: bearer(session.token) })).json().data.inviteCode;
      if (name !== 'root') {
        expect((await post(running(), PATHS.productBuy, session.token, { product: 'fixed30', amount: '2000' })).json().code).toBe(0);
      }
    }
    for (let day = 0; day < 2; day++) {
      clock.advance(DAY_MS);
      await settleDue(ctx);
    }

    // The backup unit's condition: the primary backs up, the standby skips.
    expect(primaryOnly(first)).toBe(0);
    expect(primaryOnly(standby)).toBe(1);
    pgbackrest(first, '--type=full', 'backup');
    const fullLabel = (JSON.parse(pgbackrest(first, 'info', '--output=json')) as { backup: { label: string }[] }[])[0]?.backup.at(-1)?.label;
    expect(fullLabel).toMatch(/F$/);
    // After the backup, before the failover: a move the WAL alone holds.
    await moveIntoWallet(ctx.db, 5_00000000n);
    const beforeFailover = await journalCount();

    // The primary's PostgreSQL dies; the synchronous standby is promoted, the old primary comes back as its standby.
    await closeApp();
    live.killPostgres(first);
    const second = await live.leader(first);
    await live.waitUntilSynchronous();
    // HAProxy's checks mark the old primary down within a couple of seconds: until then, wait.
    const deadline = Date.now() + 60_000;
    for (let inARow = 0; inARow < 3; inARow = (await live.routesToPrimary()) ? inARow + 1 : 0) {
      if (Date.now() > deadline) throw new Error('HAProxy leads to no primary 60 s after the failover');
      await new Promise((r) => setTimeout(r, 200));
    }

    // Money moved on the new primary, through the app and directly.
    const after = await openApp();
    const carol = await signIn(running(), { name: 'carol' });
    expect((await post(running(), PATHS.transferIn, carol.token, { asset: 'AIC', amount: '700' })).json().code).toBe(0);
    await moveIntoWallet(after.db, 7_00000000n);
    const atEnd = await journalCount();
    expect(atEnd).toBeGreaterThan(beforeFailover);

    // The condition follows the primary.
    expect(primaryOnly(second)).toBe(0);
    expect(primaryOnly(first)).toBe(1);
    // From the new primary, into the same repository: its WAL on the new timeline (check switches
    // segments and waits until the one holding the last move is archived), and a backup.
    pgbackrest(second, 'check');
    const archive = (JSON.parse(pgbackrest(second, 'info', '--output=json')) as { archive: { max: string }[] }[])[0]?.archive[0]?.max ?? '';
    expect(archive.slice(0, 8), 'the newest archived segment is on timeline 2').toBe('00000002');
    pgbackrest(second, '--type=diff', 'backup');

    // The drill from the full backup before the failover: the WAL of both timelines replayed to
    // the end, every move in the books, the verifier green. (As root, its PostgreSQL steps run as postgres.)
    const drill = run(DRILL, [
      '--config',
      configOf(second),
      '--stanza',
      STANZA,
      '--set',
      fullLabel as string,
      '--scratch',
      join(live.dir, 'scratch'),
      '--pg-bin',
      PG_BIN,
    ]);
    console.log(drill.stdout);
    expect(drill.status, `${drill.stdout}\n${drill.stderr}`).toBe(0);
    expect(drill.stdout).toContain(`journal entries: ${atEnd},`);
    expect(drill.stdout).toMatch(/^ +2026-11-0\d +[1-9]\d* lines +ok/m);
    expect(drill.stdout).toMatch(/^RESULT: PASS/m);
    expect(readdirSync(join(live.dir, 'scratch'))).toEqual([]);
  });
});
