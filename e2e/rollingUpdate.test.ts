import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../contract/paths.ts';
import { signInOverHttp } from './support/httpSignIn.ts';
import { type Answer, callFrom, NGINX, type RunningNginx, startNginx } from './support/nginx.ts';
import { PGBOUNCER, type RunningPgBouncer, startPgBouncer } from './support/pgbouncer.ts';
import { freePort, type RunningServer, startServer } from './support/server.ts';

const PG = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test');
// npm test installs nginx and PgBouncer (scripts/test-needs.mjs); elsewhere the file says so and skips.
const run = (NGINX && PGBOUNCER) || process.env.CI ? describe : describe.skip;

const SCRIPT = resolve('deploy/rolling-update.sh');

type Envelope = { code: number; msg: string; data: unknown };

/** The envelope of an answer, or undefined when the body is not one (nginx's HTML pages). */
function envelopeOf(answer: Answer): Envelope | undefined {
  try {
    const body = JSON.parse(answer.body) as Envelope;
    return typeof body.code === 'number' && 'data' in body ? body : undefined;
  } catch {
    return undefined;
  }
}

/** deploy/rolling-update.sh, run as an operator would, with the test's nginx and processes in the deployment's place. */
function rollingUpdate(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolveRun) => {
    const child = spawn('sh', [SCRIPT], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => resolveRun({ code, stdout, stderr }));
  });
}

/**
 * The deployment of docs/deploy.md on loopback: nginx with the site's proxy snippet and upstream
 * parameters in front of two app processes, both through PgBouncer in transaction mode. The
 * test stands in for systemd: the rolling update's restart command asks it, over a small HTTP
 * endpoint, to stop a process and start it again, as `systemctl restart aic-earn@N` does.
 */
run('operating the deployment: a rolling update under load, and the database going away', () => {
  const database = `roll_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG.href });
  const processes = new Map<number, RunningServer>();
  const starting = new Set<Promise<unknown>>();
  const startFailures: string[] = [];
  let ports: [number, number];
  let env: Record<string, string>;
  let bouncer: RunningPgBouncer;
  let nginx: RunningNginx;
  let control: Server;
  let controlPort: number;
  let holder: { token: string; userId: string };
  /** How a restart starts the new process: at once, after the test lets it, or never (a process that does not come up). */
  let beforeStart: (() => Promise<void>) | 'never' = async () => {};

  const start = (port: number) => {
    const started = startServer({ ...env, PORT: String(port) }).then(
      (server) => void processes.set(port, server),
      (error: unknown) => void startFailures.push(String(error)),
    );
    starting.add(started);
    void started.finally(() => starting.delete(started));
    return started;
  };

  /** `systemctl restart`: the old process stops (SIGTERM, its requests finished), and a new one is started, not awaited. */
  const restart = async (port: number) => {
    await processes.get(port)?.stop();
    processes.delete(port);
    const gate = beforeStart;
    if (gate !== 'never') void gate().then(() => start(port));
  };

  const envFor = (extra: Record<string, string> = {}) => ({
    PORTS: ports.join(' '),
    UPSTREAM_FILE: nginx.configFile,
    RELOAD_CMD: nginx.reloadCommand,
    NGINX_PID_FILE: nginx.pidFile,
    RESTART_CMD: `curl -fsS -X POST "http://127.0.0.1:${controlPort}/restart/$2"`,
    SCHEDULER_UNIT: '',
    READY_TIMEOUT: '100',
    ...extra,
  });

  const call = (path: string, method: 'GET' | 'POST' = 'GET') =>
    callFrom('127.0.0.1', `${nginx.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${holder.token}`,
        ...(method === 'POST' ? { 'content-type': 'application/json', 'idempotency-key': randomUUID() } : {}),
      },
      ...(method === 'POST' ? { body: JSON.stringify({ all: true }) } : {}),
    });

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create database ${database}`);
    bouncer = await startPgBouncer(PG, database);
    ports = [await freePort(), await freePort()];
    const nginxPort = await freePort();
    const publicUrl = `http://127.0.0.1:${nginxPort}`;
    env = {
      DATABASE_URL: bouncer.url,
      PUBLIC_URL: publicUrl,
      OAUTH_REDIRECT_URIS: `${publicUrl}/`,
      OPERATOR_USER_IDS: '1',
      SETTLEMENT_INTERVAL_MS: '0',
      LOG_LEVEL: 'info',
      // One holder sends every request of the load: the per-holder limits are not what is tested.
      RATE_LIMIT_POSTS_PER_MINUTE: '100000',
      RATE_LIMIT_GETS_PER_MINUTE: '100000',
    };
    // One migrates first; the second then finds the schema current.
    await start(ports[0]);
    await start(ports[1]);
    if (startFailures.length > 0) throw new Error(startFailures.join('\n'));
    nginx = await startNginx(ports, '127.0.0.1', nginxPort);
    control = createServer((request, response) => {
      const port = Number(/^\/restart\/(\d+)$/.exec(request.url ?? '')?.[1]);
      if (request.method !== 'POST' || !ports.includes(port)) {
        response.writeHead(404).end();
        return;
      }
      restart(port).then(
        () => response.writeHead(200).end(),
        (error: unknown) => response.writeHead(500).end(String(error)),
      );
    });
    await new Promise<void>((listening) => control.listen(0, '127.0.0.1', listening));
    controlPort = (control.address() as { port: number }).port;
    holder = await signInOverHttp(nginx.baseUrl, { name: 'Hana' });
  }, 240_000);

  afterAll(async () => {
    await Promise.allSettled([...starting]);
    control?.close();
    await nginx?.stop();
    await Promise.all([...processes.values()].map((server) => server.stop()));
    await bouncer?.remove();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  });

  it('restarts both processes one at a time while GETs and POSTs go through nginx: every answer is 200 with the envelope', async () => {
    const before = ports.map((port) => processes.get(port)?.pid);
    const failures: string[] = [];
    let answered = 0;
    const waiting: { count: number; release: () => void }[] = [];
    let rolloutDone = false;
    // Each process, once stopped, starts again only after the clients have had more answers:
    // some requests are always sent while it is out.
    beforeStart = () => new Promise<void>((release) => waiting.push({ count: answered + 10, release }));
    const one = async (kind: number) => {
      const [path, method] = ([[PATHS.getAsset, 'GET'], [PATHS.home, 'GET'], [PATHS.notificationsRead, 'POST']] as const)[kind % 3] as [
        string,
        'GET' | 'POST',
      ];
      try {
        const answer = await call(path, method);
        const envelope = envelopeOf(answer);
        if (answer.status !== 200 || envelope?.code !== 0) failures.push(`${method} ${path}: ${answer.status} ${answer.body.slice(0, 120)}`);
      } catch (error) {
        failures.push(`${method} ${path}: ${String(error)}`);
      }
      answered++;
      for (const waiter of waiting.filter((w) => answered >= w.count)) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.release();
      }
    };
    const clients = Array.from({ length: 3 }, async (_, client) => {
      for (let i = client; !rolloutDone; i++) await one(i);
    });

    const result = await rollingUpdate(envFor());
    rolloutDone = true;
    await Promise.all(clients);
    // The script is done once /readyz answers; the test's own record of a new process (its start
    // polls the app) may come a moment later.
    await Promise.allSettled([...starting]);
    beforeStart = async () => {};
    console.log(`rolling update: ${answered} answers through nginx while both processes were restarted`);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(startFailures).toEqual([]);
    expect(failures).toEqual([]);
    // Both were restarted, and both are back in nginx's upstream: each serves again.
    expect(ports.map((port) => processes.get(port)?.pid)).not.toContain(before[0]);
    expect(ports.map((port) => processes.get(port)?.pid)).not.toContain(before[1]);
    expect(readFileSync(nginx.configFile, 'utf8')).not.toMatch(/\bdown;/);
    for (let i = 0; i < 6; i++) expect((await call(PATHS.getAsset)).status).toBe(200);
    for (const port of ports) expect(processes.get(port)?.logs()).toContain(`"url":"${PATHS.getAsset}"`);
  }, 300_000);

  it('stops at a process that does not become ready: it stays out of nginx, the other serves and is left as it was', async () => {
    const [first, second] = ports;
    const untouched = processes.get(second)?.pid;
    beforeStart = 'never';
    const result = await rollingUpdate(envFor({ READY_TIMEOUT: '2' }));
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(`not ready (GET http://127.0.0.1:${first}/readyz) within 2 s`);
    const upstream = readFileSync(nginx.configFile, 'utf8');
    expect(upstream).toMatch(new RegExp(`server 127\\.0\\.0\\.1:${first} [^;]*down;`));
    expect(upstream).not.toMatch(new RegExp(`server 127\\.0\\.0\\.1:${second} [^;]*down;`));
    expect(processes.get(second)?.pid).toBe(untouched);
    for (let i = 0; i < 6; i++) {
      const answer = await call(i % 2 ? PATHS.notificationsRead : PATHS.getAsset, i % 2 ? 'POST' : 'GET');
      expect([answer.status, envelopeOf(answer)?.code]).toEqual([200, 0]);
    }

    // Once the fault is fixed, the same script for that process alone puts it back.
    beforeStart = async () => {};
    const again = await rollingUpdate(envFor({ PORTS: String(first) }));
    await Promise.allSettled([...starting]);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(readFileSync(nginx.configFile, 'utf8')).not.toMatch(/\bdown;/);
    expect(startFailures).toEqual([]);
  }, 300_000);

  it('with the database gone, nginx passes on the app JSON 503s and /healthz stays 200; once it is back, requests succeed within 2 s', async () => {
    expect((await call(PATHS.getAsset)).status).toBe(200);
    await bouncer.stop();
    // More requests than it took the former upstream settings to mark both processes down.
    for (let i = 0; i < 8; i++) {
      for (const [path, method] of [
        [PATHS.getAsset, 'GET'],
        [PATHS.notificationsRead, 'POST'],
      ] as const) {
        const answer = await call(path, method);
        expect([method, path, answer.status, envelopeOf(answer)?.code]).toEqual([method, path, 503, 503]);
      }
      const health = await callFrom('127.0.0.1', `${nginx.baseUrl}/healthz`);
      expect([health.status, health.body]).toEqual([200, '{"status":"ok"}']);
      const ready = await callFrom('127.0.0.1', `${nginx.baseUrl}/readyz`);
      expect([ready.status, ready.body]).toEqual([503, '{"status":"database unreachable"}']);
    }

    await bouncer.start();
    const back = Date.now();
    let answer: Answer | undefined;
    for (let i = 0; i < 20; i++) {
      answer = await call(i % 2 ? PATHS.notificationsRead : PATHS.getAsset, i % 2 ? 'POST' : 'GET');
      if (answer.status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const after = Date.now() - back;
    console.log(`database outage: the first request after PgBouncer was back succeeded after ${after} ms`);
    expect([answer?.status, answer && envelopeOf(answer)?.code]).toEqual([200, 0]);
    expect(after).toBeLessThanOrEqual(2_000);
    for (const [path, method] of [
      [PATHS.getAsset, 'GET'],
      [PATHS.notificationsRead, 'POST'],
      [PATHS.getAsset, 'GET'],
      [PATHS.notificationsRead, 'POST'],
    ] as const) {
      const next = await call(path, method);
      expect([method, next.status, envelopeOf(next)?.code]).toEqual([method, 200, 0]);
    }
  }, 120_000);
});

/**
 * The request a process receives after SIGTERM, on a connection it had already accepted, is
 * answered by the app rather than refused with Fastify's own 503 body. Outside a rolling update
 * (a plain `systemctl restart`, or nginx's keep-alive connection picked just before the process
 * stopped listening) such a request still reaches a process on its way down.
 */
describe('a process on its way down', () => {
  it('answers a request that arrives on an open connection after SIGTERM, and closes the connection', async () => {
    const server = await startServer();
    try {
      const socket = connect(server.port, '127.0.0.1');
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (received += chunk));
      const closed = new Promise<void>((done) => socket.once('close', () => done()));
      await new Promise<void>((connected) => socket.once('connect', () => connected()));
      // A request begun: the connection is busy, so closing leaves it open.
      socket.write(`GET ${PATHS.home} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
      process.kill(server.pid, 'SIGTERM');
      // The process is closing once it takes no new connection.
      while (await fetch(`http://127.0.0.1:${server.port}/healthz`).then(() => true, () => false)) {
        await new Promise((r) => setTimeout(r, 50));
      }
      socket.write('\r\n');
      await closed;
      const [head = '', body = ''] = received.split('\r\n\r\n');
      expect(head.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
      expect(head.toLowerCase()).toContain('connection: close');
      expect((JSON.parse(body) as Envelope).code).toBe(0);
    } finally {
      await server.stop();
    }
  });
});
