import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './server.ts';

export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));

const BROTLI = ['filter', 'static'].map((kind) => `/usr/lib/nginx/modules/ngx_http_brotli_${kind}_module.so`);

/** The site's shared part, as deployed (docs/deploy.md). */
const PROXY_SNIPPET = resolve('deploy/nginx/aic-earn-proxy.conf');

export type RunningNginx = { baseUrl: string; port: number; stop: () => Promise<void>; errors: () => string };

/**
 * nginx on a free loopback port in front of `upstreams`, with the deployment's own proxy snippet
 * and, in place of TLS, plain HTTP. It reaches the app from `bindAddress`, another loopback
 * address than the clients', so the app can tell its proxy (TRUST_PROXY) from its clients.
 */
export async function startNginx(upstreams: number[], bindAddress: string, listenPort?: number): Promise<RunningNginx> {
  const dir = mkdtempSync(join(tmpdir(), 'nginx-'));
  mkdirSync(join(dir, 'tmp'));
  // As root, nginx's workers run as nobody: they write their temporary files here.
  chmodSync(dir, 0o777);
  chmodSync(join(dir, 'tmp'), 0o777);
  const port = listenPort ?? (await freePort());
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `${kind}_temp_path ${join(dir, 'tmp', kind)};`);
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      // Debian's brotli modules (its own nginx.conf loads them from modules-enabled).
      ...BROTLI.map((module) => `load_module ${module};`),
      'worker_processes 1;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'error.log')} warn;`,
      'events { worker_connections 512; }',
      'http {',
      `  access_log ${join(dir, 'access.log')};`,
      ...temp.map((line) => `  ${line}`),
      '  upstream aic_earn {',
      ...upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=2 fail_timeout=10s;`),
      '    keepalive 16;',
      '  }',
      '  server {',
      `    listen 127.0.0.1:${port};`,
      `    proxy_bind ${bindAddress};`,
      `    include ${PROXY_SNIPPET};`,
      '  }',
      '}',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(NGINX ?? 'nginx', ['-e', join(dir, 'error.log'), '-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const errors = () => stderr + (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '');
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${errors()}`);
    const up = await fetch(`${baseUrl}/healthz`).then((r) => r.ok, () => false);
    if (up) break;
    if (i === 100) throw new Error(`nginx did not answer: ${errors()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    port,
    errors,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type Answer = { status: number; body: string };

/** One HTTP call from a chosen local address (a client of its own on the loopback network). */
export function callFrom(
  from: string,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolvePromise, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, localAddress: from, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
