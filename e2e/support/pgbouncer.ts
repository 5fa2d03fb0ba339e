import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './server.ts';

export const PGBOUNCER = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((path) => existsSync(path));

export type RunningPgBouncer = {
  /** The database through PgBouncer: what the app's DATABASE_URL names. */
  url: string;
  /** Stops PgBouncer at once (SIGTERM: its immediate shutdown), closing every connection: the database is gone for the app. */
  stop: () => Promise<void>;
  /** Starts it again on the same port, and returns once it takes connections. */
  start: () => Promise<void>;
  /** Stops it and removes its files. */
  remove: () => Promise<void>;
};

/**
 * PgBouncer in transaction pooling mode, as deploy/pgbouncer/pgbouncer.ini runs it, in front of
 * `database` of the PostgreSQL at `postgresUrl`, on a free port.
 */
export async function startPgBouncer(postgresUrl: URL, database: string): Promise<RunningPgBouncer> {
  const dir = mkdtempSync(join(tmpdir(), 'pgbouncer-'));
  chmodSync(dir, 0o777);
  const port = await freePort();
  const user = decodeURIComponent(postgresUrl.username) || 'postgres';
  writeFileSync(join(dir, 'users.txt'), `"${user}" ""\n`);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `${database} = host=${postgresUrl.hostname} port=${postgresUrl.port || 5432} dbname=${database}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 200',
      'default_pool_size = 10',
      'ignore_startup_parameters = extra_float_digits',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
    ].join('\n'),
  );
  const url = `postgres://${user}@127.0.0.1:${port}/${database}`;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const start = async () => {
    // PgBouncer will not run as root; as root, it is told to become postgres.
    const asRoot = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
    const started = spawn(PGBOUNCER ?? 'pgbouncer', [...asRoot, join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
    child = started;
    exited = new Promise((resolveExit) => started.once('exit', () => resolveExit()));
    for (let i = 0; ; i++) {
      const client = new pg.Client({ connectionString: url });
      const up = await client.connect().then(
        () => true,
        () => false,
      );
      await client.end().catch(() => undefined);
      if (up) return;
      if (started.exitCode !== null || i === 100) {
        const log = existsSync(join(dir, 'pgbouncer.log')) ? readFileSync(join(dir, 'pgbouncer.log'), 'utf8') : '';
        throw new Error(`PgBouncer did not start: ${log.slice(-500)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const stop = async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url,
    stop,
    start,
    remove: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
