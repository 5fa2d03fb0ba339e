import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A PostgreSQL cluster as deploy/ ships it, on loopback in a temp folder: one etcd member, two
 * hosts each run by Patroni from deploy/patroni/aic-earn.yml, and HAProxy from
 * deploy/haproxy/aic-earn-postgres.cfg in front. Each line the test changes (addresses, folders,
 * the leader key's lifetime) must be in the shipped file, so a change there that breaks the
 * cluster breaks the failover test. Every process is the test's own and is stopped by PID.
 */
const ROOT = new URL('../..', import.meta.url).pathname;
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** The programs the cluster needs, and the Debian packages that bring them (npm test's pretest installs them). */
export function clusterProgramsMissing(): string[] {
  const onPath = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
  return [
    ...(onPath('patroni') ? [] : ['patroni']),
    ...(onPath('etcd') ? [] : ['etcd-server']),
    ...(onPath('haproxy') ? [] : ['haproxy']),
    ...(existsSync(join(PG_BIN, 'initdb')) ? [] : [`PostgreSQL's programs in ${PG_BIN} (set PG_BIN)`]),
  ];
}

/**
 * A free port below Linux's ephemeral range (32768 and up): a port the system picked (listen on
 * 0) can be handed to another connection's local end before PostgreSQL or etcd binds it, and
 * under a whole test suite's connections one was ("Address already in use").
 */
async function clusterPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

/** PostgreSQL refuses to run as root, so as root the cluster's processes are the postgres user's. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** `text` with each pattern replaced; throws when the shipped file lacks one. */
function replaced(text: string, file: string, replacements: [RegExp, string][]): string {
  let result = text;
  for (const [pattern, by] of replacements) {
    if (!pattern.test(result)) throw new Error(`${file} no longer has ${pattern}: the cluster's test must follow it`);
    result = result.replace(pattern, by);
  }
  return result;
}

export type Member = { name: string; pgPort: number; apiPort: number; dir: string; env?: Record<string, string>; patroni?: ChildProcess };

type ClusterOptions = {
  /**
   * WAL archiving as deploy/patroni/aic-earn.yml ships it (archive_mode on, pgBackRest's
   * archive-push). Called for each host once its folder exists, before its Patroni starts: it may
   * write files there, and returns what to add to that host's Patroni's environment, and so to its
   * PostgreSQL's and archive_command's (PGBACKREST_CONFIG). Without it archive_mode is off, so no
   * other test's cluster pushes WAL through whatever /etc/pgbackrest.conf the machine has.
   */
  archiving?: (member: Member) => Record<string, string>;
};

type MemberState = { name: string; role: string; state: string };

/** The superuser's and the app's passwords in the test's cluster. */
export const CLUSTER_PASSWORD = 'failover-test';

export class DatabaseCluster {
  readonly members: Member[] = [];
  private etcd?: ChildProcess;
  private haproxy?: ChildProcess;
  private readonly owner = runAs();
  private constructor(
    readonly dir: string,
    readonly routerPort: number,
    private readonly etcdPorts: [number, number],
  ) {}

  /** Starts etcd, both hosts' Patroni (the first bootstraps, the second copies it) and HAProxy. */
  static async start(options: ClusterOptions = {}): Promise<DatabaseCluster> {
    const dir = mkdtempSync(join(tmpdir(), 'aic-cluster-'));
    const cluster = new DatabaseCluster(dir, await clusterPort(), [await clusterPort(), await clusterPort()]);
    for (const name of ['pg1', 'pg2']) {
      cluster.members.push({ name, pgPort: await clusterPort(), apiPort: await clusterPort(), dir: join(dir, name) });
    }
    try {
      cluster.own(dir);
      cluster.startEtcd();
      for (const member of cluster.members) {
        mkdirSync(member.dir, { mode: 0o700 });
        cluster.own(member.dir);
        if (options.archiving) member.env = options.archiving(member);
        writeFileSync(join(member.dir, 'patroni.yml'), cluster.patroniConfig(member, options.archiving !== undefined));
      }
      const [first, second] = cluster.members as [Member, Member];
      cluster.startPatroni(first);
      await cluster.waitFor(async () => (await cluster.states()).some((m) => m.role === 'leader' && m.state === 'running'), 'the first host to lead');
      cluster.startPatroni(second);
      await cluster.waitUntilSynchronous();
      writeFileSync(join(dir, 'haproxy.cfg'), cluster.haproxyConfig());
      cluster.haproxy = cluster.spawn('haproxy', ['-db', '-f', join(dir, 'haproxy.cfg')], 'haproxy', false);
      // HAProxy counts a server up until its checks say otherwise, so at first it may lead to the
      // standby: wait until several connections in a row reach the primary.
      let inARow = 0;
      await cluster.waitFor(async () => {
        inARow = (await cluster.routesToPrimary()) ? inARow + 1 : 0;
        return inARow >= 4;
      }, 'primary through HAProxy');
    } catch (error) {
      // Nothing left running by a start that failed half way.
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  /** The address the app is given: HAProxy, which leads to the primary. */
  url(user = 'postgres', database = 'postgres'): string {
    return `postgres://${user}:${CLUSTER_PASSWORD}@127.0.0.1:${this.routerPort}/${database}`;
  }

  /** Whether a connection through HAProxy reaches a server that takes writes. */
  async routesToPrimary(): Promise<boolean> {
    const client = new pg.Client({ connectionString: this.url(), connectionTimeoutMillis: 1_000 });
    try {
      await client.connect();
      return !(await client.query<{ standby: boolean }>('select pg_is_in_recovery() as standby')).rows[0]?.standby;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** Each host's role as Patroni reports it ('leader', 'sync_standby', 'replica'), from any Patroni answering. */
  async states(): Promise<MemberState[]> {
    for (const member of this.members) {
      try {
        const response = await fetch(`http://127.0.0.1:${member.apiPort}/cluster`, { signal: AbortSignal.timeout(1_000) });
        if (response.ok) return ((await response.json()) as { members: MemberState[] }).members;
      } catch {
        // That host's Patroni is down: ask the other.
      }
    }
    return [];
  }

  /** The host that leads, once one does (one other than `not`, when given). */
  async leader(not?: Member): Promise<Member> {
    let name = '';
    await this.waitFor(async () => {
      name = (await this.states()).find((m) => m.role === 'leader' && m.state === 'running' && m.name !== not?.name)?.name ?? '';
      return name !== '';
    }, not ? `leader other than ${not.name}` : 'a leader');
    return this.member(name);
  }

  /** Waits until one host leads and the other streams to it as its synchronous standby. */
  async waitUntilSynchronous(): Promise<void> {
    await this.waitFor(async () => {
      const states = await this.states();
      return (
        states.some((m) => m.role === 'leader' && m.state === 'running') &&
        states.some((m) => m.role === 'sync_standby' && ['running', 'streaming'].includes(m.state))
      );
    }, 'a leader with a synchronous standby');
  }

  /** kill -9 of the host's postmaster, as a crash of PostgreSQL would leave it. */
  killPostgres(member: Member): void {
    const pidFile = join(member.dir, 'data/postmaster.pid');
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGKILL');
  }

  /** kill -9 of the host's Patroni, leaving its PostgreSQL running without it. */
  killPatroni(member: Member): void {
    member.patroni?.kill('SIGKILL');
    member.patroni = undefined;
  }

  /** Starts the host's Patroni again, as systemd's Restart= would. */
  startPatroni(member: Member): void {
    member.patroni = this.spawn('patroni', [join(member.dir, 'patroni.yml')], member.name, true, member.env);
  }

  member(name: string): Member {
    const found = this.members.find((m) => m.name === name);
    if (!found) throw new Error(`no host ${name}`);
    return found;
  }

  /** Stops everything by PID, PostgreSQL at once (immediate), and removes the folder. */
  async stop(): Promise<void> {
    for (const member of this.members) this.killPatroni(member);
    for (const member of this.members) {
      if (existsSync(join(member.dir, 'data/postmaster.pid'))) {
        spawnSync(join(PG_BIN, 'pg_ctl'), ['-D', join(member.dir, 'data'), '-m', 'immediate', 'stop'], this.spawnOptions());
      }
    }
    this.haproxy?.kill('SIGKILL');
    this.etcd?.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** What each process printed, for a failure's message. */
  logs(name: string): string {
    const file = join(this.dir, `${name}.log`);
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  }

  private startEtcd(): void {
    const [client, peer] = this.etcdPorts;
    const clientUrl = `http://127.0.0.1:${client}`;
    const peerUrl = `http://127.0.0.1:${peer}`;
    this.etcd = this.spawn(
      'etcd',
      [
        '--name=e1',
        `--data-dir=${join(this.dir, 'etcd')}`,
        `--listen-client-urls=${clientUrl}`,
        `--advertise-client-urls=${clientUrl}`,
        `--listen-peer-urls=${peerUrl}`,
        `--initial-advertise-peer-urls=${peerUrl}`,
        `--initial-cluster=e1=${peerUrl}`,
      ],
      'etcd',
      true,
    );
  }

  private patroniConfig(member: Member, archiving: boolean): string {
    const file = 'deploy/patroni/aic-earn.yml';
    const api = `127.0.0.1:${member.apiPort}`;
    const pg = `127.0.0.1:${member.pgPort}`;
    return replaced(readFileSync(join(ROOT, file), 'utf8'), file, [
      [/^name: db1$/m, `name: ${member.name}`],
      [/^ {2}listen: 10\.0\.0\.11:8008$/m, `  listen: ${api}`],
      [/^ {2}connect_address: 10\.0\.0\.11:8008$/m, `  connect_address: ${api}`],
      [/^ {2}hosts: 10\.0\.0\.11:2379,.*$/m, `  hosts: 127.0.0.1:${this.etcdPorts[0]}`],
      // A shorter lease and loop than a real cluster's keep the test's failovers short; the rule
      // Patroni gives (loop_wait + 2 retry_timeout <= ttl) still holds.
      [/^ {4}ttl: 20$/m, '    ttl: 10'],
      [/^ {4}loop_wait: 5$/m, '    loop_wait: 1'],
      [/^ {4}retry_timeout: 5$/m, '    retry_timeout: 3'],
      [/ 10\.0\.0\.0\/24 /g, ' 127.0.0.1/32 '],
      // The test's processes run as one user, which is not always the postgres role.
      [/^ {2}- local all postgres peer$/m, '  - local all all trust'],
      [/^ {2}listen: 10\.0\.0\.11:5432$/m, `  listen: ${pg}`],
      [/^ {2}connect_address: 10\.0\.0\.11:5432$/m, `  connect_address: ${pg}`],
      [/^ {2}data_dir: .*$/m, `  data_dir: ${join(member.dir, 'data')}`],
      [/^ {2}bin_dir: .*$/m, `  bin_dir: ${PG_BIN}`],
      [/^ {2}pgpass: .*$/m, `  pgpass: ${join(member.dir, 'pgpass')}`],
      [/change-me-\w+/g, CLUSTER_PASSWORD],
      [/^ {4}unix_socket_directories: .*$/m, `    unix_socket_directories: ${member.dir}`],
      // Two PostgreSQL servers and two app processes on a test machine: fewer connections each.
      [/^ {8}max_connections: 200$/m, '        max_connections: 60'],
      // Archiving only for the test that gives it a repository (ClusterOptions.archiving).
      ...(archiving ? [] : ([[/^ {8}archive_mode: 'on'$/m, "        archive_mode: 'off'"]] as [RegExp, string][])),
    ]);
  }

  private haproxyConfig(): string {
    const file = 'deploy/haproxy/aic-earn-postgres.cfg';
    const [first, second] = this.members as [Member, Member];
    const server = (member: Member) => `  server ${member.name} 127.0.0.1:${member.pgPort} $1 check port ${member.apiPort}`;
    return replaced(readFileSync(join(ROOT, file), 'utf8'), file, [
      [/^ {2}bind 127\.0\.0\.1:5000$/m, `  bind 127.0.0.1:${this.routerPort}`],
      [/^ {2}server db1 10\.0\.0\.11:5432 (.*) check port 8008$/m, server(first)],
      [/^ {2}server db2 10\.0\.0\.12:5432 (.*) check port 8008$/m, server(second)],
    ]);
  }

  private spawnOptions(env: Record<string, string> = {}) {
    return { ...(this.owner ?? {}), cwd: this.dir, env: { ...process.env, ...env, PATRONI_LOG_LEVEL: 'INFO' } };
  }

  /** A process of the cluster's, its output appended to <name>.log in the folder. */
  private spawn(command: string, args: string[], name: string, asOwner: boolean, env?: Record<string, string>): ChildProcess {
    const options = asOwner ? this.spawnOptions(env) : { cwd: this.dir };
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const log = join(this.dir, `${name}.log`);
    const append = (chunk: Buffer) => {
      // A process killed at stop() may still be flushing as the folder goes: nothing to keep then.
      if (existsSync(this.dir)) writeFileSync(log, chunk, { flag: 'a' });
    };
    child.stdout?.on('data', append);
    child.stderr?.on('data', append);
    return child;
  }

  private own(path: string): void {
    if (this.owner) chownSync(path, this.owner.uid, this.owner.gid);
  }

  private async waitFor(check: () => Promise<boolean>, what: string, seconds = 90): Promise<void> {
    const deadline = Date.now() + seconds * 1_000;
    while (!(await check())) {
      if (Date.now() > deadline) {
        const logs = this.members.map((m) => `${m.name}:\n${this.logs(m.name).slice(-3000)}`).join('\n');
        throw new Error(`the cluster: no ${what} within ${seconds} s\n${logs}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
