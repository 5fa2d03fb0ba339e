import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The deployment's files (deploy/) agree with each other and pass their tools' own checks:
 * Prometheus scrapes the port each systemd unit gives its process for /metrics, the units are
 * sandboxed and valid, PgBouncer may open the descriptors its pgbouncer.ini needs, Patroni is
 * restarted within its leader key's ttl.
 */
const DEPLOY = new URL('../../deploy/', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(DEPLOY, path), 'utf8');
const onPath = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
// A developer without the tool skips; CI has them all (scripts/test-needs.mjs installs them).
const missing = (command: string) => !onPath(command) && !process.env.CI;

const APP_UNIT = 'systemd/aic-earn@.service';
const SCHEDULER_UNIT = 'systemd/aic-earn-scheduler.service';
const UNITS = [APP_UNIT, SCHEDULER_UNIT];
/** Debian's own unit, from the pgbouncer package (scripts/test-needs.mjs installs it). */
const PGBOUNCER_UNIT = '/lib/systemd/system/pgbouncer.service';
/** Debian's own template unit, from the patroni package (scripts/test-needs.mjs installs it). */
const PATRONI_UNIT = '/lib/systemd/system/patroni@.service';
const PATRONI_DROP_IN = 'systemd/patroni@.service.d/aic-earn.conf';
/** Debian's own units, from the etcd-server and haproxy packages (scripts/test-needs.mjs installs them). */
const ETCD_UNIT = '/lib/systemd/system/etcd.service';
const HAPROXY_UNIT = '/lib/systemd/system/haproxy.service';
const BACKUP_UNIT = 'systemd/aic-earn-backup@.service';
/** On the cluster's database hosts: the backup runs on the primary alone. */
const PRIMARY_ONLY_DROP_IN = 'systemd/aic-earn-backup@.service.d/primary-only.conf';

/** A unit's [Service] settings, continuation lines joined; a key set twice keeps every value. */
function unitSettings(path: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  const lines = read(path).replace(/\s*\\\n\s*/g, ' ').split('\n');
  let section = '';
  for (const line of lines) {
    const header = /^\[(\w+)\]$/.exec(line.trim());
    if (header) section = header[1] as string;
    const setting = /^(\w+)=(.*)$/.exec(line);
    if (section !== 'Service' || !setting) continue;
    const [, key, value] = setting as unknown as [string, string, string];
    settings.set(key, [...(settings.get(key) ?? []), value]);
  }
  return settings;
}

/** The variables a unit's ExecStart sets on its command line (`/usr/bin/env NAME=value ... node`). */
function commandLineEnv(path: string, instance = ''): Record<string, string> {
  const execStart = unitSettings(path).get('ExecStart')?.[0] ?? '';
  const env: Record<string, string> = {};
  for (const [, name, value] of execStart.replaceAll('%i', instance).matchAll(/\b([A-Z_]+)=(\S+)/g)) {
    env[name as string] = value as string;
  }
  return env;
}

/** The app processes nginx sends holders to: their instance numbers, from the upstream's ports 300N. */
function upstreamInstances(): string[] {
  return [...read('nginx/aic-earn.conf').matchAll(/^\s*server 127\.0\.0\.1:300(\d)\b/gm)].map((match) => match[1] as string);
}

/** The aic-earn job's scrape targets in deploy/prometheus/prometheus.yml. */
function scrapeTargets(): string[] {
  const config = read('prometheus/prometheus.yml');
  const job = config.slice(config.indexOf('job_name: aic-earn'));
  const end = job.search(/\n\s*- job_name:/);
  return [...(end === -1 ? job : job.slice(0, end)).matchAll(/'(127\.0\.0\.1:\d+)'/g)].map((match) => match[1] as string);
}

describe('the Prometheus scrape configuration (deploy/prometheus/prometheus.yml)', () => {
  it.skipIf(missing('promtool'))('passes promtool check config, with the shipped rules beside it', () => {
    // Installed as docs/deploy.md says: the rules and the token file in the same folder.
    const dir = mkdtempSync(join(tmpdir(), 'aic-earn-prometheus-'));
    try {
      copyFileSync(join(DEPLOY, 'prometheus/prometheus.yml'), join(dir, 'prometheus.yml'));
      copyFileSync(join(DEPLOY, 'prometheus/aic-earn-rules.yml'), join(dir, 'aic-earn-rules.yml'));
      writeFileSync(join(dir, 'aic-earn-metrics-token'), 'a-token\n', { mode: 0o600 });
      const run = spawnSync('promtool', ['check', 'config', join(dir, 'prometheus.yml')], { encoding: 'utf8' });
      expect(run.error, 'promtool not found: npm test installs prometheus (scripts/test-needs.mjs)').toBeUndefined();
      expect(run.stdout + run.stderr).toContain('SUCCESS: 1 rule files found');
      expect(run.stdout + run.stderr).not.toContain('FAILED');
      expect(run.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("scrapes exactly each process's METRICS_PORT on 127.0.0.1: the app processes of nginx's upstream and the scheduler", () => {
    const instances = upstreamInstances();
    expect(instances).toEqual(['1', '2']);
    const expected = [
      ...instances.map((instance) => commandLineEnv(APP_UNIT, instance).METRICS_PORT),
      commandLineEnv(SCHEDULER_UNIT).METRICS_PORT,
    ].map((port) => `127.0.0.1:${port}`);
    expect(scrapeTargets().sort()).toEqual(expected.sort());
  });

  it('gives every process ports of its own, apart from the other jobs of the same Prometheus', () => {
    const processes = [...upstreamInstances().map((instance) => commandLineEnv(APP_UNIT, instance)), commandLineEnv(SCHEDULER_UNIT)];
    const ports = processes.flatMap((env) => [env.PORT, env.METRICS_PORT]);
    expect(ports.every((port) => port !== undefined && /^\d+$/.test(port) && Number(port) < 65536)).toBe(true);
    expect(new Set(ports).size).toBe(ports.length);
    // Prometheus itself, the Alertmanager and the node exporter Debian's prometheus package brings.
    const others = [...read('prometheus/prometheus.yml').matchAll(/'127\.0\.0\.1:(\d+)'/g)]
      .map((match) => match[1] as string)
      .filter((port) => !scrapeTargets().includes(`127.0.0.1:${port}`));
    expect(others.sort()).toEqual(['9090', '9093', '9100']);
    expect(ports.filter((port) => others.includes(port as string))).toEqual([]);
  });
});

describe('the systemd units (deploy/systemd)', () => {
  it.each(UNITS)('%s runs Node 24 from the project (npm ci installs it), per-process settings on its command line', (unit) => {
    const execStart = unitSettings(unit).get('ExecStart')?.[0] ?? '';
    expect(execStart).toMatch(/^\/usr\/bin\/env (\S+=\S+ )+\/opt\/aic-earn\/node_modules\/\.bin\/node --import tsx server\/main\.ts$/);
    expect(Object.keys(commandLineEnv(unit)).sort()).toEqual(['HOST', 'METRICS_PORT', 'PORT', 'SETTLEMENT_INTERVAL_MS']);
    expect(unitSettings(unit).get('Environment')).toBeUndefined();
    expect(unitSettings(unit).get('User')).toEqual(['aic-earn']);
  });

  it('the shared settings file sets METRICS_TOKEN and none of what differs between processes', () => {
    const names = [...read('env.example').matchAll(/^([A-Z_]+)=/gm)].map((match) => match[1]);
    expect(names).toContain('METRICS_TOKEN');
    expect(names.filter((name) => ['PORT', 'HOST', 'METRICS_PORT', 'SETTLEMENT_INTERVAL_MS'].includes(name as string))).toEqual([]);
  });

  it.skipIf(missing('systemd-analyze')).each(UNITS)('%s is sandboxed to an exposure of 3.0 or less (systemd-analyze security)', (unit) => {
    // --threshold counts in tenths: 30 is the 3.0 the summary line shows.
    const run = spawnSync('systemd-analyze', ['security', '--offline=true', '--threshold=30', join(DEPLOY, unit)], { encoding: 'utf8' });
    expect(run.error, 'systemd-analyze not found: npm test installs systemd (scripts/test-needs.mjs)').toBeUndefined();
    const exposure = /Overall exposure level for \S+: (\d+\.\d)/.exec(run.stdout)?.[1];
    expect(exposure, run.stdout + run.stderr).toBeDefined();
    expect(Number(exposure)).toBeLessThanOrEqual(3);
    expect(run.status, run.stderr).toBe(0);
  });

  it.skipIf(missing('systemd-analyze')).each(UNITS)('%s passes systemd-analyze verify without a warning', (unit) => {
    const run = spawnSync('systemd-analyze', ['verify', join(DEPLOY, unit)], { encoding: 'utf8' });
    expect(run.error).toBeUndefined();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it.skipIf(missing('systemd-analyze') || (!existsSync(PGBOUNCER_UNIT) && !process.env.CI))(
    "PgBouncer's drop-in passes systemd-analyze verify beside Debian's pgbouncer.service",
    () => {
      // A unit file given by path is read with the drop-ins in the folder beside it.
      const dir = mkdtempSync(join(tmpdir(), 'aic-earn-pgbouncer-'));
      try {
        copyFileSync(PGBOUNCER_UNIT, join(dir, 'pgbouncer.service'));
        mkdirSync(join(dir, 'pgbouncer.service.d'));
        copyFileSync(join(DEPLOY, 'systemd/pgbouncer.service.d/limits.conf'), join(dir, 'pgbouncer.service.d/limits.conf'));
        const run = spawnSync('systemd-analyze', ['verify', join(dir, 'pgbouncer.service')], { encoding: 'utf8' });
        expect(run.error).toBeUndefined();
        expect(run.stderr).toBe('');
        expect(run.status).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  /** Runs `systemd-analyze` on one of Debian's units with a drop-in of deploy/systemd in the folder beside it. */
  function analyzeBesideDebian(debianUnit: string, dropIn: string, ...args: string[]) {
    // A unit file given by path is read with the drop-ins in the folder beside it.
    const name = debianUnit.split('/').pop() as string;
    const dir = mkdtempSync(join(tmpdir(), 'aic-earn-drop-in-'));
    try {
      copyFileSync(debianUnit, join(dir, name));
      mkdirSync(join(dir, `${name}.d`));
      copyFileSync(join(DEPLOY, dropIn), join(dir, `${name}.d`, dropIn.split('/').pop() as string));
      return spawnSync('systemd-analyze', [...args, join(dir, name)], { encoding: 'utf8' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const analyzePatroni = (...args: string[]) => analyzeBesideDebian(PATRONI_UNIT, PATRONI_DROP_IN, ...args);
  const noPatroniUnit = missing('systemd-analyze') || (!existsSync(PATRONI_UNIT) && !process.env.CI);

  it.skipIf(noPatroniUnit)("Patroni's drop-in passes systemd-analyze verify beside Debian's patroni@.service", () => {
    const run = analyzePatroni('verify');
    expect(run.error).toBeUndefined();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it.skipIf(noPatroniUnit)("Patroni's drop-in sandboxes Debian's patroni@.service to an exposure of 3.0 or less", () => {
    const run = analyzePatroni('security', '--offline=true', '--threshold=30');
    expect(run.error).toBeUndefined();
    const exposure = /Overall exposure level for \S+: (\d+\.\d)/.exec(run.stdout)?.[1];
    expect(exposure, run.stdout + run.stderr).toBeDefined();
    expect(Number(exposure)).toBeLessThanOrEqual(3);
    expect(run.status, run.stderr).toBe(0);
  });

  // The cluster's etcd (on the three etcd machines) and HAProxy (on the app machine), each a
  // drop-in for Debian's unit, which sandboxes nothing (an exposure of 9.2 and 9.6).
  const CLUSTER_DROP_INS = [
    { name: 'etcd', unit: ETCD_UNIT, dropIn: 'systemd/etcd.service.d/aic-earn.conf' },
    { name: 'HAProxy', unit: HAPROXY_UNIT, dropIn: 'systemd/haproxy.service.d/aic-earn.conf' },
  ];
  const noDebianUnit = (unit: string) => missing('systemd-analyze') || (!existsSync(unit) && !process.env.CI);

  describe.each(CLUSTER_DROP_INS)("$name's drop-in ($dropIn)", ({ unit, dropIn }) => {
    it.skipIf(noDebianUnit(unit))(`passes systemd-analyze verify beside Debian's ${unit}`, () => {
      const run = analyzeBesideDebian(unit, dropIn, 'verify');
      expect(run.error, 'systemd-analyze not found: npm test installs systemd (scripts/test-needs.mjs)').toBeUndefined();
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
    });

    it.skipIf(noDebianUnit(unit))(`sandboxes Debian's ${unit} to an exposure of 2.0 or less`, () => {
      const run = analyzeBesideDebian(unit, dropIn, 'security', '--offline=true', '--threshold=20');
      expect(run.error).toBeUndefined();
      const exposure = /Overall exposure level for \S+: (\d+\.\d)/.exec(run.stdout)?.[1];
      expect(exposure, run.stdout + run.stderr).toBeDefined();
      expect(Number(exposure)).toBeLessThanOrEqual(2);
      expect(run.status, run.stderr).toBe(0);
    });
  });

  it("etcd's drop-in lets it write the data directory of deploy/etcd/etcd.env", () => {
    const dataDir = /^ETCD_DATA_DIR=(\S+)$/m.exec(read('etcd/etcd.env'))?.[1] ?? '';
    const writable = unitSettings('systemd/etcd.service.d/aic-earn.conf').get('ReadWritePaths')?.join(' ').split(/\s+/) ?? [];
    expect(dataDir).not.toBe('');
    expect(writable.some((path) => dataDir === path || dataDir.startsWith(`${path}/`))).toBe(true);
  });

  it("HAProxy's drop-in runs it unprivileged, which the shipped haproxy.cfg allows: no chroot, no user, no port below 1024", () => {
    const settings = unitSettings('systemd/haproxy.service.d/aic-earn.conf');
    expect(settings.get('User')).toEqual(['haproxy']);
    expect(settings.get('CapabilityBoundingSet')).toEqual(['']);
    const config = read('haproxy/aic-earn-postgres.cfg');
    expect(config).not.toMatch(/^\s*(chroot|user|uid|group|gid)\s/m);
    const ports = [...config.matchAll(/^\s*bind \S*:(\d+)/gm)].map((match) => Number(match[1]));
    expect(ports.length).toBeGreaterThan(0);
    expect(ports.every((port) => port >= 1024)).toBe(true);
    // The pid file and the master socket, in the one folder it may write (Debian's unit has them in /run).
    expect(settings.get('ReadWritePaths')).toEqual(['/run/haproxy']);
    expect(settings.get('Environment')).toEqual(['"PIDFILE=/run/haproxy/haproxy.pid" "EXTRAOPTS=-S /run/haproxy/master.sock"']);
  });

  /** Runs `systemd-analyze` on the backup unit with the cluster's primary-only drop-in beside it. */
  function analyzeBackupOnCluster(...args: string[]) {
    const dir = mkdtempSync(join(tmpdir(), 'aic-earn-backup-'));
    try {
      copyFileSync(join(DEPLOY, BACKUP_UNIT), join(dir, 'aic-earn-backup@.service'));
      mkdirSync(join(dir, 'aic-earn-backup@.service.d'));
      copyFileSync(join(DEPLOY, PRIMARY_ONLY_DROP_IN), join(dir, 'aic-earn-backup@.service.d/primary-only.conf'));
      return spawnSync('systemd-analyze', [...args, join(dir, 'aic-earn-backup@.service')], { encoding: 'utf8' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it.skipIf(missing('systemd-analyze'))("the backup unit with the cluster's primary-only drop-in passes systemd-analyze verify", () => {
    const run = analyzeBackupOnCluster('verify');
    expect(run.error).toBeUndefined();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it.skipIf(missing('systemd-analyze'))("the backup unit with the cluster's primary-only drop-in stays sandboxed to an exposure of 2.0 or less", () => {
    const run = analyzeBackupOnCluster('security', '--offline=true', '--threshold=20');
    const exposure = /Overall exposure level for \S+: (\d+\.\d)/.exec(run.stdout)?.[1];
    expect(exposure, run.stdout + run.stderr).toBeDefined();
    expect(Number(exposure)).toBeLessThanOrEqual(2);
    expect(run.status, run.stderr).toBe(0);
  });

  it("the cluster's backups: the primary-only condition, Patroni's archiving and pgBackRest's paths agree", () => {
    const patroni = read('patroni/aic-earn.yml');
    const setting = (name: string) => new RegExp(`^ +${name}: (.*)$`, 'm').exec(patroni)?.[1];
    // The condition asks Patroni's PostgreSQL (its bin_dir) whether it is in recovery, after Patroni's unit.
    const dropIn = read(PRIMARY_ONLY_DROP_IN);
    expect(dropIn).toMatch(/^After=patroni@aic-earn\.service$/m);
    const condition = /^ExecCondition=(.*)$/m.exec(dropIn)?.[1] ?? '';
    expect(condition).toContain(`${setting('bin_dir')}/psql `);
    expect(condition).toContain('select pg_is_in_recovery()');
    // The same archive_command as a single server's, into the stanza pgBackRest's file names, from Patroni's data directory.
    const snippet = read('postgresql/aic-earn-archiving.conf');
    expect(`archive_command = ${setting('archive_command')}`).toBe(/^archive_command = .*$/m.exec(snippet)?.[0]);
    expect(setting('archive_mode')).toBe("'on'");
    expect(setting('archive_timeout')).toBe(/^archive_timeout = (\d+)$/m.exec(snippet)?.[1]);
    const pgbackrest = read('pgbackrest/pgbackrest-cluster.conf');
    expect(pgbackrest).toMatch(/^\[aic-earn\]$/m);
    expect(/^pg1-path=(.*)$/m.exec(pgbackrest)?.[1]).toBe(setting('data_dir'));
    expect(/^pg1-socket-path=(.*)$/m.exec(pgbackrest)?.[1]).toBe(setting('unix_socket_directories'));
    // The repository is one both hosts reach, and not on either of them.
    expect(pgbackrest).toMatch(/^repo1-type=s3$/m);
    expect(pgbackrest).not.toMatch(/^repo2-/m);
  });

  it("Patroni's drop-in restarts it well within the leader key's ttl (deploy/patroni/aic-earn.yml)", () => {
    const dropIn = read(PATRONI_DROP_IN);
    expect(dropIn).toMatch(/^Restart=on-failure$/m);
    const restartSec = Number(/^RestartSec=(\d+)s?$/m.exec(dropIn)?.[1]);
    const ttl = Number(/^\s+ttl: (\d+)$/m.exec(read('patroni/aic-earn.yml'))?.[1]);
    expect(Number.isFinite(ttl) && ttl > 0).toBe(true);
    // Patroni itself takes a moment to start and renew the key: leave it most of the ttl.
    expect(restartSec).toBeLessThanOrEqual(ttl / 4);
  });

  it("PgBouncer's drop-in lets it open what pgbouncer.ini's max_client_conn and pools need", () => {
    const ini = read('pgbouncer/pgbouncer.ini');
    const setting = (name: string) => Number(new RegExp(`^${name}\\s*=\\s*(\\d+)`, 'm').exec(ini)?.[1]);
    const databases = ini.split('[pgbouncer]')[0]?.match(/^\w+\s*=/gm)?.length ?? 0;
    // PgBouncer's own estimate at start ("max expected fd use"): a descriptor per client and per
    // server connection, and a few of its own (listening sockets, the log).
    const needed = setting('max_client_conn') + setting('default_pool_size') * databases + 64;
    const limit = /^LimitNOFILE=(\d+)$/m.exec(read('systemd/pgbouncer.service.d/limits.conf'))?.[1];
    expect(Number.isFinite(needed)).toBe(true);
    expect(Number(limit)).toBeGreaterThanOrEqual(needed);
  });
});
