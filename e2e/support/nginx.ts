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
/** The site, whose upstream block the test's upstream copies. */
const SITE = resolve('deploy/nginx/aic-earn.conf');

/**
 * The shipped upstream's parameters: what follows the address on each `server` line (the same on
 * every line) and its other directives (keepalive), so the test's nginx treats its processes as
 * the deployment's treats its own.
 */
function shippedUpstream(): { serverParameters: string; directives: string[] } {
  const block = /upstream aic_earn \{([^}]*)\}/.exec(readFileSync(SITE, 'utf8'))?.[1];
  if (!block) throw new Error(`no upstream aic_earn in ${SITE}`);
  const lines = block
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean);
  const parameters = new Set(lines.filter((line) => line.startsWith('server ')).map((line) => line.replace(/^server\s+\S+\s*/, '').replace(/;$/, '')));
  if (parameters.size !== 1) throw new Error(`the server lines of ${SITE} differ: ${[...parameters].join(' | ')}`);
  return { serverParameters: [...parameters][0] as string, directives: lines.filter((line) => !line.startsWith('server ')) };
}

export type RunningNginx = {
  baseUrl: string;
  port: number;
  stop: () => Promise<void>;
  errors: () => string;
  /** The configuration file, whose upstream has a `server 127.0.0.1:<port> ...;` line per process, as the site's. */
  configFile: string;
  pidFile: string;
  /** Checks the configuration file and has the running nginx apply it, as `nginx -t && nginx -s reload` does. */
  reloadCommand: string;
};

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
  const upstream = shippedUpstream();
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
      ...upstreams.map((p) => `    server 127.0.0.1:${p} ${upstream.serverParameters};`),
      ...upstream.directives.map((line) => `    ${line}`),
      '  }',
      '  server {',
      `    listen 127.0.0.1:${port};`,
      `    proxy_bind ${bindAddress};`,
      `    include ${PROXY_SNIPPET};`,
      '  }',
      '}',
    ].join('\n'),
  );
  const options = ['-e', join(dir, 'error.log'), '-p', dir, '-c', join(dir, 'nginx.conf')];
  const child: ChildProcess = spawn(NGINX ?? 'nginx', [...options, '-g', 'daemon off;'], {
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
  const command = [NGINX ?? 'nginx', ...options].join(' ');
  return {
    baseUrl,
    port,
    errors,
    configFile: join(dir, 'nginx.conf'),
    pidFile: join(dir, 'nginx.pid'),
    reloadCommand: `${command} -t -q && ${command} -s reload`,
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
