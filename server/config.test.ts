import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DAILY_RATE_PARAMS } from '../contract/products.ts';
import { loadConfig } from './config.ts';

const ROOT = new URL('..', import.meta.url).pathname;
/** A real exchange's settings, and the token key a public address needs. */
const EXCHANGE = { OIDC_ISSUER: 'https://exchange.example/oidc', EXCHANGE_API_URL: 'https://exchange.example/api' };
const TOKEN_KEY = { EXCHANGE_TOKEN_KEY: Buffer.alloc(32, 7).toString('base64') };

describe('configuration checked at start-up', () => {
  it.each([
    ['a whole number', { PORT: '30s' }, 'PORT must be a whole number (got "30s")'],
    ['a boolean', { SEED_DEMO: 'yes' }, 'SEED_DEMO must be true or false (got "yes")'],
    ['a decimal', { POOL_DAILY_OUTPUT_RATE: '1%' }, 'POOL_DAILY_OUTPUT_RATE must be a decimal number such as 0.01 (got "1%")'],
    ['an amount', { WITHDRAW_MINIMUM: '0.000000001' }, 'WITHDRAW_MINIMUM must be a decimal amount with at most 8 decimals (got "0.000000001")'],
    ['an address', { PUBLIC_URL: 'earn.example.com' }, 'PUBLIC_URL must be an http or https address (got "earn.example.com")'],
    ['a return address', { OAUTH_REDIRECT_URIS: 'http://a.example/,ftp://b.example/' }, 'OAUTH_REDIRECT_URIS must be an http or https address (got "ftp://b.example/")'],
    ['a day', { LAUNCH_DAY: '2026-13-01' }, 'LAUNCH_DAY must be a day written YYYY-MM-DD (got "2026-13-01")'],
    ['a moment', { CLOCK_START: 'tomorrow' }, 'CLOCK_START must be a moment such as 2026-11-01T08:00:00Z (got "tomorrow")'],
    ['one of a list', { LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")'],
    ['user ids', { OPERATOR_USER_IDS: '1,bob' }, 'OPERATOR_USER_IDS must be user ids separated by commas (got "bob")'],
    [
      'a platform invitation code no holder could have',
      { DEFAULT_INVITE_CODE: 'abcd' },
      'DEFAULT_INVITE_CODE must be an invitation code: 8 characters of 23456789ABCDEFGHJKMNPQRSTUVWXYZ (got "abcd")',
    ],
    [
      'a platform invitation code with a look-alike (O for 0)',
      { DEFAULT_INVITE_CODE: 'OPERATOR' },
      'DEFAULT_INVITE_CODE must be an invitation code: 8 characters of 23456789ABCDEFGHJKMNPQRSTUVWXYZ (got "OPERATOR")',
    ],
    [
      'an issuer without its secret',
      { OIDC_ISSUER: 'https://exchange.example/oidc' },
      'OIDC_ISSUER is set but OIDC_CLIENT_SECRET is not: set the secret the exchange gave this app',
    ],
    [
      'an issuer without the exchange\'s transfer API',
      { OIDC_ISSUER: 'https://exchange.example/oidc', OIDC_CLIENT_SECRET: 's3cret' },
      "OIDC_ISSUER is set but EXCHANGE_API_URL is not: set the address of the exchange's transfer API (for another instance's embedded exchange, http://HOST:PORT/exchange)",
    ],
    [
      'a real exchange on a public address without a token key',
      { PUBLIC_URL: 'https://earn.example.com', ...EXCHANGE, OIDC_CLIENT_SECRET: 's3cret' },
      "EXCHANGE_TOKEN_KEY is not set and PUBLIC_URL https://earn.example.com is a public address: set 32 random bytes (openssl rand -base64 32) to encrypt holders' exchange tokens, or set DEMO=true for a public demo",
    ],
    ['a token key of the wrong size', { EXCHANGE_TOKEN_KEY: 'c2hvcnQ=' }, 'EXCHANGE_TOKEN_KEY must be 32 bytes written in base64 or hex (openssl rand -base64 32) (got "…")'],
    ['faults that are not name=number', { EXCHANGE_FAULTS: 'timeoutAfterApply' }, 'EXCHANGE_FAULTS must be name=number pairs separated by commas, such as timeoutAfterApply=0.1 (got "timeoutAfterApply")'],
    [
      'a movable clock with a real exchange',
      { ...EXCHANGE, OIDC_CLIENT_SECRET: 's3cret', CLOCK_ADJUSTABLE: 'true' },
      'CLOCK_ADJUSTABLE=true lets operators move the clock: not with a real exchange (OIDC_ISSUER); unset it',
    ],
    ['a database address pg would take for a host name', { DATABASE_URL: 'garbage' }, 'DATABASE_URL must be a postgres:// address such as postgres://user:password@host:5432/database (got "garbage")'],
    ['a database address, its password left out', { DATABASE_URL: 'mysql://app:s3cret@db/app' }, 'DATABASE_URL must be a postgres:// address such as postgres://user:password@host:5432/database (got "mysql://app:…@db/app")'],
    ['rebate rates, by their variable', { REBATE_RATES: '0.1,abc' }, 'REBATE_RATES "0.1,abc": each rate is a decimal between 0 and 1'],
    ['level thresholds, by their variable', { LEVEL_THRESHOLDS: '100,50' }, 'LEVEL_THRESHOLDS "100,50": thresholds rise with the level'],
    ['unlock tiers, by their variable', { UNLOCK_TIERS: '10000' }, 'UNLOCK_TIERS "10000": tiers as holding:share, e.g. 10000:0.5,5000:0.3'],
    ['the lock-up, by its variable', { LOCKUP_DAYS: 'ten' }, 'LOCKUP_DAYS "ten": whole days, 0 to 9999'],
    ['settlement parts of no holders', { SETTLEMENT_PART_HOLDERS: '0' }, 'SETTLEMENT_PART_HOLDERS must be a whole number above 0 (got "0")'],
    ['the effective minimum, by its variable', { EFFECTIVE_MINIMUM: 'lots' }, 'EFFECTIVE_MINIMUM "lots": an amount'],
    ['a proxy list trusting anyone', { TRUST_PROXY: 'true' }, 'TRUST_PROXY must be proxy addresses or CIDR ranges separated by commas, or a number of hops (got "true")'],
    [
      'the embedded exchange on a public address',
      { PUBLIC_URL: 'https://earn.example.com' },
      "PUBLIC_URL https://earn.example.com is a public address and OIDC_ISSUER is not set: the embedded demo exchange lets anyone sign in as anyone. Set OIDC_ISSUER and OIDC_CLIENT_SECRET to your exchange's, or set DEMO=true for a public demo",
    ],
    [
      'the demo client secret on a public address',
      { PUBLIC_URL: 'https://earn.example.com', ...EXCHANGE, OIDC_CLIENT_SECRET: 'embedded-provider-demo-secret' },
      "OIDC_CLIENT_SECRET is the embedded exchange's demo secret and PUBLIC_URL https://earn.example.com is a public address: set the secret your exchange gave this app, or set DEMO=true for a public demo",
    ],
    [
      'demo money on a public address',
      { PUBLIC_URL: 'http://203.0.113.7:3000', ...EXCHANGE, ...TOKEN_KEY, OIDC_CLIENT_SECRET: 's3cret', SEED_DEMO: 'true' },
      'SEED_DEMO=true fills the books with demo money and PUBLIC_URL http://203.0.113.7:3000 is a public address: unset it, or set DEMO=true for a public demo',
    ],
    [
      'a movable clock on a public address',
      { PUBLIC_URL: 'https://earn.example.com', ...EXCHANGE, OIDC_CLIENT_SECRET: 's3cret', CLOCK_ADJUSTABLE: 'true' },
      'CLOCK_ADJUSTABLE=true lets operators move the clock: not with a real exchange (OIDC_ISSUER); unset it',
    ],
  ])('refuses %s in one line naming the variable', (_kind, env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('takes good values, and keeps the clock still with a real exchange unless told', () => {
    const config = loadConfig({ PORT: '8080', SEED_DEMO: 'false', LOG_LEVEL: 'warn', OPERATOR_USER_IDS: '1, 2' });
    expect(config).toMatchObject({ port: 8080, seedDemo: false, logLevel: 'warn', operatorUserIds: [1n, 2n] });
    expect(loadConfig({}).clockAdjustable).toBe(true);
    const real = loadConfig({ ...EXCHANGE, OIDC_CLIENT_SECRET: 's3cret' });
    expect(real.clockAdjustable).toBe(false);
  });

  it('takes a platform invitation code of the codes\' form, as it is compared (capitals), or none', () => {
    expect(loadConfig({}).defaultInviteCode).toBeUndefined();
    // A code no holder has yet is taken: the operator's account may be made after the start.
    expect(loadConfig({ DEFAULT_INVITE_CODE: ' zzzz2222 ' }).defaultInviteCode).toBe('ZZZZ2222');
  });

  it('keeps a laptop, a LAN address and a public demo as easy as before, and a real deployment plain', () => {
    for (const PUBLIC_URL of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://192.168.1.20:3000', 'http://laptop.local:3000']) {
      expect(loadConfig({ PUBLIC_URL })).toMatchObject({ seedDemo: true, clockAdjustable: true, oidcIssuer: undefined, demo: false });
    }
    const demo = loadConfig({ PUBLIC_URL: 'https://demo.example.com', DEMO: 'true' });
    expect(demo).toMatchObject({ demo: true, seedDemo: true, clockAdjustable: true, oidcIssuer: undefined });
    const real = loadConfig({ PUBLIC_URL: 'https://earn.example.com', ...EXCHANGE, ...TOKEN_KEY, OIDC_CLIENT_SECRET: 's3cret' });
    expect(real).toMatchObject({ demo: false, seedDemo: false, clockAdjustable: false, trustProxy: false });
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1,10.0.0.0/8' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8']);
  });

  it('stops the real server on a public address with its demo exchange, and starts it with DEMO=true', async () => {
    // Not under example.com: the real server refuses env.example's placeholder addresses first.
    const base = { ...process.env, PUBLIC_URL: 'https://earn.aic-earn.test', DATA_DIR: mkdtempSync(join(tmpdir(), 'aic-demo-')), LOG_LEVEL: 'warn' };
    const refused = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: ROOT, env: { ...base, PORT: '0' }, encoding: 'utf8', timeout: 60_000 });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('configuration: PUBLIC_URL https://earn.aic-earn.test is a public address and OIDC_ISSUER is not set');
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: ROOT, env: { ...base, PORT: String(port), DEMO: 'true', HOST: '127.0.0.1' }, stdio: 'ignore' });
    try {
      let status = 0;
      for (let i = 0; i < 240 && status !== 200; i++) {
        status = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status, () => 0);
        if (status !== 200) await new Promise((r) => setTimeout(r, 250));
      }
      expect(status).toBe(200);
    } finally {
      child.kill('SIGKILL');
      rmSync(base.DATA_DIR, { recursive: true, force: true });
    }
  }, 90_000);

  it('stops a server given an issuer without the exchange API, in one line naming the variable', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', OIDC_ISSUER: 'http://localhost:3911/oidc', OIDC_CLIENT_SECRET: 'embedded-provider-demo-secret', DATA_DIR: '/nonexistent-never-opened' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.split('\n').filter((line) => line.trim() && !/oidc-provider WARNING|ExperimentalWarning|--trace-warnings/.test(line));
    expect(lines).toEqual([
      "configuration: OIDC_ISSUER is set but EXCHANGE_API_URL is not: set the address of the exchange's transfer API (for another instance's embedded exchange, http://HOST:PORT/exchange)",
    ]);
  });

  it('stops the real server with that one line and nothing else', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: 'abc', DATA_DIR: '/nonexistent-never-opened' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.split('\n').filter((line) => line.trim() && !/oidc-provider WARNING|ExperimentalWarning|--trace-warnings/.test(line));
    expect(lines).toEqual(['configuration: PORT must be a whole number (got "abc")']);
  });
});

/** KEY=value lines of an env file. */
const envFile = (text: string) =>
  Object.fromEntries([...text.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1] as string, m[2] as string]));

describe("deploy/env.example's placeholders", () => {
  const example = envFile(readFileSync(join(ROOT, 'deploy/env.example'), 'utf8'));
  /** A deployment's own settings, every one of them replaced. */
  const own: Record<string, string> = {
    PUBLIC_URL: 'https://earn.aic-earn.test',
    TRUST_PROXY: '127.0.0.1',
    DATABASE_URL: 'postgres://aic_earn:Zq8vR2@127.0.0.1:6432/aic_earn',
    DATABASE_PREPARED_STATEMENTS: 'false',
    READ_STATEMENT_TIMEOUT_MS: '0',
    REDIS_URL: 'redis://127.0.0.1:6379',
    OIDC_ISSUER: 'https://exchange.aic-earn.test',
    OIDC_CLIENT_ID: 'aic-earn',
    OIDC_CLIENT_SECRET: 'Zq8vR2-client-secret',
    OAUTH_REDIRECT_URIS: 'https://earn.aic-earn.test/',
    EXCHANGE_API_URL: 'https://exchange.aic-earn.test/api',
    ...TOKEN_KEY,
    OPERATOR_USER_IDS: '1',
    VAPID_SUBJECT: 'mailto:ops@aic-earn.test',
    METRICS_TOKEN: 'Zq8vR2-metrics-token',
    LOG_LEVEL: 'info',
  };
  const placeholders = Object.keys(example).filter((name) => /change-me|example\.com/i.test(example[name] as string));

  it('are every value of it that is not the same everywhere, all recognisable (CHANGE-ME, example.com)', () => {
    expect(placeholders.length).toBeGreaterThan(5);
    expect(Object.keys(example).filter((name) => !(name in own))).toEqual([]);
    expect(() => loadConfig(own, { refusePlaceholders: true })).not.toThrow();
  });

  it.each(placeholders)('%s left as in env.example stops the server, in one line naming it', (name) => {
    expect(() => loadConfig({ ...own, [name]: example[name] as string }, { refusePlaceholders: true })).toThrow(
      new RegExp(`^${name} still holds deploy/env.example's placeholder \\((CHANGE-ME|[a-z.]*example\\.com)\\): set this deployment's own value$`),
    );
  });

  it('is said before what is wrong with the placeholder\'s form, and only for variables the server reads', () => {
    expect(() => loadConfig({ EXCHANGE_TOKEN_KEY: 'CHANGE-ME' }, { refusePlaceholders: true })).toThrow('EXCHANGE_TOKEN_KEY still holds');
    expect(() => loadConfig({ EXCHANGE_TOKEN_KEY: 'CHANGE-ME' })).toThrow('EXCHANGE_TOKEN_KEY must be 32 bytes');
    expect(() => loadConfig({ SOMETHING_ELSE: 'CHANGE-ME', GIT_AUTHOR_EMAIL: 'me@example.com' }, { refusePlaceholders: true })).not.toThrow();
    expect(() => loadConfig({ PUBLIC_URL: 'https://notexample.com', DEMO: 'true' }, { refusePlaceholders: true })).not.toThrow();
  });
});

/** Files of the repository that may read a variable (configuration, tests, benchmarks, the build). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.') || name === 'dist') return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx|mjs|js)$/.test(name) ? [path] : [];
  });
}

describe("the README's table of variables", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## Sign-in'));
  const documented = new Set([...section.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1] as string));
  const configSource = readFileSync(join(ROOT, 'server/config.ts'), 'utf8');
  const read = new Set([
    ...[...configSource.matchAll(/\(env, '([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1] as string),
    ...[...configSource.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1] as string),
    ...[...configSource.matchAll(/given\(env, '([A-Z][A-Z0-9_]+)'\)/g)].map((m) => m[1] as string),
    ...DAILY_RATE_PARAMS.map(({ product }) => `EARN_${product.toUpperCase()}_DAILY_RATE`),
  ]);

  it('lists every variable the server reads', () => {
    expect([...read].filter((name) => !documented.has(name))).toEqual([]);
  });

  it('lists only variables something reads', () => {
    const everything = ['server', 'bench', 'e2e', 'scripts', 'web', 'vitest.config.ts', 'vite.config.ts']
      .flatMap((entry) => (statSync(join(ROOT, entry)).isDirectory() ? sources(join(ROOT, entry)) : [join(ROOT, entry)]))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const unread = [...documented].filter((name) => !read.has(name) && !everything.includes(name));
    expect(unread).toEqual([]);
  });
});
