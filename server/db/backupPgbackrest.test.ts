import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../contract/paths.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import { DAY_MS, fixedClock } from '../platform/clock.ts';
import { seedDemoData } from '../platform/seed.ts';
import { settleDue } from '../settlement/settle.ts';
import { commandsAs } from '../test/commands.ts';
import { moveIntoWallet } from '../test/population.ts';
import { bearer, post, signIn } from '../test/signIn.ts';
import { connect, type DbHandle } from './connect.ts';
import { migrateToLatest } from './migrate.ts';

/**
 * The PostgreSQL backups as shipped in deploy/: a throwaway cluster archives its WAL through the
 * shipped snippet (deploy/postgresql/aic-earn-archiving.conf) into a repository configured by the
 * shipped pgbackrest.conf (its paths and port replaced), holds the app's schema and money that
 * moved through the app, is backed up, and the real restore drill restores it, latest and to a
 * moment, with the verifier green.
 */
const ROOT = new URL('../..', import.meta.url).pathname;
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const STANZA = 'aic-earn';
const DRILL = join(ROOT, 'deploy/restore-drill.sh');

const onPath = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const missing = [
  ...(onPath('pgbackrest') ? [] : ['pgbackrest (apt-get install pgbackrest)']),
  ...(existsSync(join(PG_BIN, 'initdb')) ? [] : [`PostgreSQL's programs in ${PG_BIN} (set PG_BIN)`]),
];
// In CI nothing is skipped: a missing program fails the test below with what to install.
const skip = missing.length > 0 && !process.env.CI;
if (skip) console.warn(`backupPgbackrest.test.ts skipped: needs ${missing.join(' and ')}`);

/** PostgreSQL refuses to run as root, so as root the cluster is the postgres user's. */
const asRoot = process.getuid?.() === 0;
const PG_USER = process.env.PG_USER ?? 'postgres';

const { run, ok } = commandsAs(PG_USER);

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

/**
 * The shipped pgbackrest.conf with this cluster's paths and port: each line replaced must be in
 * the shipped file, so the test fails rather than quietly testing another configuration.
 */
function derivedConfig(dir: string, port: number): string {
  let text = readFileSync(join(ROOT, 'deploy/pgbackrest/pgbackrest.conf'), 'utf8');
  const replace = (pattern: RegExp, by: string) => {
    expect(text, `${pattern} in deploy/pgbackrest/pgbackrest.conf`).toMatch(pattern);
    text = text.replace(pattern, by);
  };
  replace(/^repo1-path=.*$/m, `repo1-path=${dir}/repo`);
  replace(/^pg1-path=.*$/m, `pg1-path=${dir}/data`);
  replace(/^pg1-port=.*$/m, `pg1-port=${port}`);
  replace(/^pg1-socket-path=.*$/m, `pg1-socket-path=${dir}/socket`);
  // Its own logs and locks, beside everything else of this cluster.
  replace(/^\[global\]$/m, `[global]\nlog-path=${dir}/log\nlock-path=${dir}/lock`);
  // The off-site repository is shipped commented out: the file works with repo1 alone.
  expect(text).not.toMatch(/^repo2-/m);
  return text;
}

describe.skipIf(skip)('PostgreSQL backups with pgBackRest, and the restore drill', () => {
  let dir = '';
  let port = 0;
  let config = '';
  let handle: DbHandle | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  /** Journal entries when the backup ends, at the moment recorded, and after the last change. */
  const entries = { atBackup: 0, atMoment: 0, atEnd: 0 };
  let moment = '';

  const pgbackrest = (...args: string[]) => ok('pgbackrest', [`--config=${config}`, `--stanza=${STANZA}`, ...args], { asPg: true });
  const journalCount = async (db: DbHandle['db']) =>
    Number((await sql<{ n: string }>`select count(*)::text as n from journal_entries`.execute(db)).rows[0]?.n);
  const drill = (args: string[], options: { asPg?: boolean } = {}) =>
    run(DRILL, ['--config', config, '--stanza', STANZA, '--scratch', join(dir, 'scratch'), '--pg-bin', PG_BIN, '--pg-user', PG_USER, ...args], options);

  beforeAll(async () => {
    if (missing.length > 0) throw new Error(`CI must run the backup test: install ${missing.join(' and ')}`);
    dir = mkdtempSync(join(tmpdir(), 'aic-pgbackrest-'));
    port = await freePort();
    for (const sub of ['', 'socket', 'log', 'lock', 'scratch']) {
      mkdirSync(join(dir, sub), { recursive: true });
      chmodSync(join(dir, sub), 0o700);
      if (asRoot) chownSync(join(dir, sub), Number(ok('id', ['-u', PG_USER])), Number(ok('id', ['-g', PG_USER])));
    }
    config = join(dir, 'pgbackrest.conf');
    writeFileSync(config, derivedConfig(dir, port), { mode: 0o644 });

    ok(join(PG_BIN, 'initdb'), ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C'], { asPg: true });
    // The shipped archiving snippet as it is, the way Debian's conf.d includes it.
    const snippet = join(ROOT, 'deploy/postgresql/aic-earn-archiving.conf');
    writeFileSync(join(dir, 'data/postgresql.conf'), `\ninclude '${snippet}'\n`, { flag: 'a' });
    ok(
      join(PG_BIN, 'pg_ctl'),
      ['-D', join(dir, 'data'), '-l', join(dir, 'postgres.log'), '-o', `-p ${port} -k ${dir}/socket -c listen_addresses=127.0.0.1`, '-w', 'start'],
      // archive_command names no configuration: it finds this one as it would find /etc/pgbackrest.conf.
      { asPg: true, env: { PGBACKREST_CONFIG: config } },
    );
    pgbackrest('stanza-create');
    pgbackrest('check');

    // The database and role of docs/deploy.md, section 3.
    const psql = (command: string) => ok(join(PG_BIN, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-Xqc', command]);
    psql('create role aic_earn login');
    psql('create database aic_earn owner aic_earn');

    // Money moving through the app: holders recharge, buy, and days settle (the verifier's work).
    handle = await connect({ databaseUrl: `postgres://aic_earn@127.0.0.1:${port}/aic_earn`, poolSize: 5 });
    await migrateToLatest(handle.db);
    await seedDemoData(handle.db);
    const ctx: AppContext = {
      config: { ...loadConfig({}), webDir: '/nonexistent', settlementIntervalMs: 0 },
      db: handle.db,
      dbKind: handle.kind,
      clock: fixedClock(new Date('2026-11-01T08:00:00Z')),
    };
    app = await buildApp(ctx, { logger: false });
    await app.ready();
    let inviter: string | undefined;
    for (const name of ['root', 'alice', 'bob']) {
      const session = await signIn(app, { name });
      expect((await post(app, PATHS.transferIn, session.token, { asset: 'AIC', amount: '5000' })).json().code).toBe(0);
      if (inviter) await post(app, PATHS.bindInviter, session.token, { inviteCode: inviter });
      inviter = (await app.inject({ url: PATHS.userInfo, headers: bearer(session.token) })).json().data.inviteCode;
      if (name !== 'root') {
        expect((await post(app, PATHS.productBuy, session.token, { product: 'current', amount: '1000' })).json().code).toBe(0);
        expect((await post(app, PATHS.productBuy, session.token, { product: 'fixed30', amount: '2000' })).json().code).toBe(0);
      }
    }
    for (let day = 0; day < 3; day++) {
      ctx.clock.advance(DAY_MS);
      await settleDue(ctx);
    }

    pgbackrest('--type=full', 'backup');
    entries.atBackup = await journalCount(handle.db);
    // pgBackRest picks the backup for a target time by whole seconds (a stop time before the
    // target's second), so the moment recorded below must fall in a later second than the stop.
    const info = JSON.parse(pgbackrest('info', '--output=json')) as { backup: { timestamp: { stop: number } }[] }[];
    const stop = info[0]?.backup.at(-1)?.timestamp.stop ?? 0;
    await sql`select pg_sleep(greatest(0, ${stop + 1} - extract(epoch from clock_timestamp())::float8))`.execute(handle.db);
    // After the backup: a move the WAL alone holds, the moment, then a move after it.
    await moveIntoWallet(handle.db, 5_00000000n);
    entries.atMoment = await journalCount(handle.db);
    moment = (await sql<{ t: string }>`select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00' as t`.execute(handle.db))
      .rows[0]?.t as string;
    await moveIntoWallet(handle.db, 7_00000000n);
    entries.atEnd = await journalCount(handle.db);
    // Switches to a new WAL segment and waits until the one holding the last move is archived.
    pgbackrest('check');
  });

  afterAll(async () => {
    await app?.close();
    await handle?.close();
    if (dir && existsSync(join(dir, 'data/postmaster.pid'))) run(join(PG_BIN, 'pg_ctl'), ['-D', join(dir, 'data'), '-m', 'immediate', 'stop'], { asPg: true });
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('restores the latest state (backup and archived WAL) and the verifier is green', () => {
    expect(entries.atMoment).toBeGreaterThan(entries.atBackup);
    expect(entries.atEnd).toBeGreaterThan(entries.atMoment);
    // As the test's own user, as an operator would type it (as root, PostgreSQL's steps run as postgres).
    const result = drill([]);
    console.log(result.stdout);
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toContain(`journal entries: ${entries.atEnd},`);
    // Days were settled and verified line by line, not an empty database.
    expect(result.stdout).toMatch(/^ +2026-11-0\d +[1-9]\d* lines +ok/m);
    expect(result.stdout).toMatch(/referral tree +ok/);
    expect(result.stdout).toMatch(/^RESULT: PASS/m);
    // The scratch cluster is stopped and gone.
    expect(readdirSync(join(dir, 'scratch'))).toEqual([]);
  });

  it('restores to a moment: what changed after it is absent', () => {
    // As postgres, as aic-earn-backup-drill.service runs it (as anyone else: as that user).
    const result = drill(['--target', moment], { asPg: true });
    console.log(result.stdout);
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/recovery stopping before commit/);
    expect(result.stdout).toContain(`journal entries: ${entries.atMoment},`);
    expect(result.stdout).toMatch(/^RESULT: PASS: the backup restored to /m);
    expect(readdirSync(join(dir, 'scratch'))).toEqual([]);
  });

  it('fails, and says so, when there is nothing to restore', () => {
    const result = run(DRILL, ['--config', config, '--stanza', 'no-such-stanza', '--scratch', join(dir, 'scratch'), '--pg-bin', PG_BIN]);
    expect(result.status).not.toBe(0);
    expect(result.stdout).toMatch(/^RESULT: FAIL/m);
    expect(readdirSync(join(dir, 'scratch'))).toEqual([]);
  });
});

describe('the backup units (deploy/systemd/aic-earn-backup*)', () => {
  const SYSTEMD = join(ROOT, 'deploy/systemd');
  const unit = (name: string) => readFileSync(join(SYSTEMD, name), 'utf8');
  const noAnalyze = !onPath('systemd-analyze') && !process.env.CI;
  const FILES = [
    'aic-earn-backup@.service',
    'aic-earn-backup-full.timer',
    'aic-earn-backup-diff.timer',
    'aic-earn-backup-drill.service',
    'aic-earn-backup-drill.timer',
  ];

  it.skipIf(noAnalyze).each(FILES)('%s passes systemd-analyze verify without a warning', (name) => {
    const run = spawnSync('systemd-analyze', ['verify', join(SYSTEMD, name)], { encoding: 'utf8' });
    expect(run.error, 'systemd-analyze not found: npm test installs systemd (scripts/test-needs.mjs)').toBeUndefined();
    // The drill runs from the deployed checkout, which this machine need not have.
    const warnings = run.stderr.split('\n').filter((line) => line && !line.includes('/opt/aic-earn/deploy/restore-drill.sh is not executable'));
    expect(warnings).toEqual([]);
  });

  it.skipIf(noAnalyze).each(['aic-earn-backup@.service', 'aic-earn-backup-drill.service'])(
    '%s is sandboxed to an exposure of 2.0 or less (systemd-analyze security)',
    (name) => {
      // --threshold counts in tenths.
      const run = spawnSync('systemd-analyze', ['security', '--offline=true', '--threshold=20', join(SYSTEMD, name)], { encoding: 'utf8' });
      const exposure = /Overall exposure level for \S+: (\d+\.\d)/.exec(run.stdout)?.[1];
      expect(exposure, run.stdout + run.stderr).toBeDefined();
      expect(Number(exposure)).toBeLessThanOrEqual(2);
      expect(run.status, run.stderr).toBe(0);
    },
  );

  it('run as postgres without RemoveIPC, which would take the live PostgreSQL shared memory with it', () => {
    for (const name of ['aic-earn-backup@.service', 'aic-earn-backup-drill.service']) {
      expect(unit(name)).toMatch(/^User=postgres$/m);
      expect(unit(name)).not.toMatch(/^RemoveIPC=(true|yes|1|on)$/m);
    }
  });

  it('back up weekly in full and daily as differentials, into the stanza the WAL goes to', () => {
    expect(unit('aic-earn-backup-full.timer')).toMatch(/^Unit=aic-earn-backup@full\.service$/m);
    expect(unit('aic-earn-backup-diff.timer')).toMatch(/^Unit=aic-earn-backup@diff\.service$/m);
    expect(unit('aic-earn-backup@.service')).toMatch(/^ExecStart=\/usr\/bin\/pgbackrest --stanza=aic-earn --repo=1 --type=%i backup$/m);
    const snippet = readFileSync(join(ROOT, 'deploy/postgresql/aic-earn-archiving.conf'), 'utf8');
    expect(snippet).toMatch(/^archive_command = 'pgbackrest --stanza=aic-earn archive-push %p'$/m);
    expect(readFileSync(join(ROOT, 'deploy/pgbackrest/pgbackrest.conf'), 'utf8')).toMatch(/^\[aic-earn\]$/m);
    expect(readFileSync(DRILL, 'utf8')).toMatch(/^STANZA=aic-earn$/m);
  });
});
