import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;
/** How long a start may take to fail: the bound on detecting it, not a measure of it. */
const FAILS_WITHIN_MS = 60_000;
const POSTGRES = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const postgresAt = (database: string) => {
  const url = new URL(POSTGRES);
  url.pathname = `/${database}`;
  return url.href;
};

/** A port nothing listens on (taken, then let go). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Lines the runtime itself may print on stderr, whoever starts the server. */
const RUNTIME_NOISE = /oidc-provider WARNING|ExperimentalWarning|--trace-warnings/;

type Run = { child: ChildProcess; output: () => { stdout: string; stderr: string }; exited: Promise<number | null> };

function start(env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => ({ stdout, stderr }), exited };
}

type Ended = { code: number | null | 'still running'; stderr: string; stdout: string };

/** Starts the server with `env` and waits for it to end, at most FAILS_WITHIN_MS (then it is killed). */
async function failedStart(env: Record<string, string>): Promise<Ended> {
  const run = start(env);
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    run.exited,
    new Promise<'still running'>((resolve) => {
      timer = setTimeout(() => resolve('still running'), FAILS_WITHIN_MS);
    }),
  ]);
  clearTimeout(timer);
  if (code === 'still running') {
    run.child.kill('SIGKILL');
    await run.exited;
  }
  return { code, ...run.output() };
}

const stderrLines = (ended: Ended) => ended.stderr.split('\n').filter((line) => line.trim() && !RUNTIME_NOISE.test(line));

/** Runs `work` over `items`, `width` at a time (the machine has few cores, each start is a whole Node). */
async function inBatches<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i] as T);
  };
  await Promise.all(Array.from({ length: width }, lane));
  return results;
}

type Case = { name: string; env: () => Record<string, string>; variable: string; says: RegExp };

describe('a start that cannot succeed ends at once, in one line naming the variable', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'aic-startup-'));
  let busy: Server;
  let busyPort = 0;
  let freeA = 0;
  let freeB = 0;
  const ports = { port: 0, second: 0 };

  const cases: Case[] = [
    { name: 'a DATABASE_URL that is no address', env: () => ({ DATABASE_URL: 'garbage' }), variable: 'DATABASE_URL', says: /postgres:\/\/ address/ },
    {
      name: 'a DATABASE_URL whose host does not resolve',
      env: () => ({ DATABASE_URL: 'postgres://nohost.invalid/x' }),
      variable: 'DATABASE_URL',
      says: /nohost\.invalid, which does not resolve/,
    },
    {
      name: 'a database nothing answers for',
      env: () => ({ DATABASE_URL: `postgres://root@127.0.0.1:${freeA}/test` }),
      variable: 'DATABASE_URL',
      says: /no PostgreSQL answers at 127\.0\.0\.1:\d+/,
    },
    {
      name: 'a database that does not exist',
      env: () => ({ DATABASE_URL: postgresAt('no_such_db') }),
      variable: 'DATABASE_URL',
      says: /the database "no_such_db" does not exist/,
    },
    {
      name: 'a Redis nothing answers for',
      env: () => ({ DATA_DIR: join(dataDir, 'redis'), REDIS_URL: `redis://127.0.0.1:${freeB}` }),
      variable: 'REDIS_URL',
      says: /cannot reach 127\.0\.0\.1:\d+ \(connect ECONNREFUSED/,
    },
    {
      name: 'a PORT another process listens on',
      env: () => ({ DATA_DIR: join(dataDir, 'port'), PORT: String(busyPort) }),
      variable: 'PORT',
      says: /another process already listens on 127\.0\.0\.1:\d+/,
    },
    {
      name: 'a METRICS_PORT another process listens on',
      env: () => ({ DATA_DIR: join(dataDir, 'metrics'), PORT: String(ports.second), METRICS_PORT: String(busyPort) }),
      variable: 'METRICS_PORT',
      says: /another process already listens on 127\.0\.0\.1:\d+/,
    },
    { name: 'a DATA_DIR under /proc', env: () => ({ DATA_DIR: '/proc/aic' }), variable: 'DATA_DIR', says: /\/proc\/aic cannot be used/ },
    {
      name: 'a DATA_DIR under a read-only file system',
      env: () => ({ DATA_DIR: '/sys/aic/data' }),
      variable: 'DATA_DIR',
      says: /\/sys\/aic\/data cannot be used/,
    },
    {
      name: 'a DATA_DIR whose parent is a file',
      env: () => ({ DATA_DIR: join(ROOT, 'package.json', 'data') }),
      variable: 'DATA_DIR',
      says: /cannot be used \(ENOTDIR/,
    },
    { name: 'invalid REBATE_RATES', env: () => ({ REBATE_RATES: '0.1,abc' }), variable: 'REBATE_RATES', says: /"0\.1,abc": each rate is a decimal/ },
    { name: 'invalid LEVEL_THRESHOLDS', env: () => ({ LEVEL_THRESHOLDS: '100,50' }), variable: 'LEVEL_THRESHOLDS', says: /thresholds rise/ },
    { name: 'invalid UNLOCK_TIERS', env: () => ({ UNLOCK_TIERS: '10000' }), variable: 'UNLOCK_TIERS', says: /holding:share/ },
    { name: 'invalid LOCKUP_DAYS', env: () => ({ LOCKUP_DAYS: 'ten' }), variable: 'LOCKUP_DAYS', says: /whole days/ },
    { name: 'invalid EFFECTIVE_MINIMUM', env: () => ({ EFFECTIVE_MINIMUM: 'lots' }), variable: 'EFFECTIVE_MINIMUM', says: /an amount/ },
    {
      name: "deploy/env.example's placeholders",
      env: () => envFile(readFileSync(join(ROOT, 'deploy/env.example'), 'utf8')),
      variable: '[A-Z_]+',
      says: /still holds deploy\/env\.example's placeholder/,
    },
  ];
  let results: Ended[] = [];

  beforeAll(async () => {
    busy = createHttpServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    busyPort = (busy.address() as AddressInfo).port;
    [freeA, freeB, ports.port, ports.second] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    results = await inBatches(cases, 4, (kase) => failedStart({ PORT: String(ports.port), DATA_DIR: join(dataDir, 'default'), ...kase.env() }));
  }, 10 * FAILS_WITHIN_MS);

  afterAll(async () => {
    await new Promise((resolve) => busy?.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(cases.map((kase, i) => [kase.name, i] as const))('%s', (_name, i) => {
    const kase = cases[i] as Case;
    const ended = results[i] as Ended;
    const lines = stderrLines(ended);
    expect(ended.code, ended.stderr + ended.stdout).toBe(1);
    expect(lines, ended.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^(configuration|cannot start): ${kase.variable}\\b`));
    expect(lines[0]).toMatch(kase.says);
    expect(ended.stderr).not.toMatch(/^\s+at /m);
  });
});

/** KEY=value lines of an env file (comments and blank lines left out). */
function envFile(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .map((line) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim()))
      .filter((match) => match !== null)
      .map((match) => [match[1] as string, match[2] as string]),
  );
}

/** Waits until `run` has printed what `seen` looks for, or has ended. */
async function printed(run: Run, seen: (stdout: string) => boolean): Promise<string> {
  let ended = false;
  void run.exited.then(() => (ended = true));
  const deadline = Date.now() + FAILS_WITHIN_MS;
  while (!ended && !seen(run.output().stdout) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return run.output().stdout;
}

async function stop(run: Run): Promise<void> {
  if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
  await run.exited;
}

describe('team rules set in the environment on an existing database', () => {
  it('start with one warning naming the variable that the database keeps its rules', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'aic-team-rules-'));
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port), SETTLEMENT_INTERVAL_MS: '0', TRANSFER_WORKER_INTERVAL_MS: '0' };
    const listening = (stdout: string) => stdout.includes('listening on');
    try {
      // The first start seeds the rules; the same values written another way are no change.
      const first = start({ ...env, LOG_LEVEL: 'info', REBATE_RATES: '0.10,0.05,0.03,0.02,0.01' });
      expect(listening(await printed(first, listening))).toBe(true);
      await stop(first);
      const same = start({ ...env, LOG_LEVEL: 'info', REBATE_RATES: '0.1,0.05,0.03,0.02,0.01' });
      const sameOut = await printed(same, listening);
      await stop(same);
      expect(listening(sameOut)).toBe(true);
      expect(sameOut).not.toContain('REBATE_RATES');

      const changed = start({ ...env, LOG_LEVEL: 'info', REBATE_RATES: '0.2,0.1', LOCKUP_DAYS: '10' });
      const out = await printed(changed, listening);
      await stop(changed);
      expect(listening(out)).toBe(true);
      const warnings = out.split('\n').filter((line) => line.includes('"level":40'));
      expect(warnings).toHaveLength(1);
      const message = JSON.parse(warnings[0] as string).msg as string;
      expect(message).toBe(
        'REBATE_RATES=0.2,0.1 is not used: this database has 0.10,0.05,0.03,0.02,0.01 in force (team.rebate_rates). ' +
          'REBATE_RATES only seeds a new database; schedule a change from the operator console',
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 4 * FAILS_WITHIN_MS);
});

describe('an exchange whose OpenID discovery fails', () => {
  it('makes /readyz answer 503 and a sign-in that fails upstream log a warning', async () => {
    // An issuer that answers, badly: every path a 500.
    const issuer = createHttpServer((_request, response) => response.writeHead(500).end('down for maintenance'));
    await new Promise<void>((resolve) => issuer.listen(0, '127.0.0.1', resolve));
    const issuerUrl = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'aic-discovery-'));
    const port = await freePort();
    const run = start({
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'info',
      OIDC_ISSUER: issuerUrl,
      OIDC_CLIENT_SECRET: 's3cret',
      EXCHANGE_API_URL: `${issuerUrl}/api`,
      SETTLEMENT_INTERVAL_MS: '0',
      TRANSFER_WORKER_INTERVAL_MS: '0',
    });
    try {
      expect(await printed(run, (stdout) => stdout.includes('listening on'))).toContain('listening on');
      const base = `http://127.0.0.1:${port}`;
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'exchange discovery failing' });
      const signIn = await fetch(`${base}/api/authorPage?redirectUri=${encodeURIComponent(`http://localhost:${port}/`)}`);
      expect(signIn.status).toBe(502);
      const warned = await printed(run, (stdout) => stdout.includes('sign-in: the exchange failed'));
      const line = warned.split('\n').find((l) => l.includes('sign-in: the exchange failed')) as string;
      expect(JSON.parse(line)).toMatchObject({ level: 40, code: 'BAD_GATEWAY' });
    } finally {
      await stop(run);
      await new Promise((resolve) => issuer.close(resolve));
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 2 * FAILS_WITHIN_MS);
});
