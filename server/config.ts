import { createHash } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { formatUnits, parseAmount } from '../contract/money.ts';
import { parseTeamRules, type TeamRules, teamRuleProblem } from '../contract/teamRules.ts';
import { INVITE_CODE_ALPHABET, INVITE_CODE_LENGTH, isWellFormedInviteCode, normalizeInviteCode } from '../contract/team.ts';
import { DAILY_RATE_PARAMS, type Product, productOf } from '../contract/products.ts';
import { isLocalHost, parseTrustProxy } from './platform/network.ts';

/**
 * Every configuration variable of the server, read from the environment once. Business
 * numbers here are defaults; versioned parameters in the database override them per day.
 */
export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** DATABASE_PREPARED_STATEMENTS: repeated reads keep their plan on the connection (db/prepared.ts). */
  databasePrepare: boolean;
  logLevel: string;
  webDir: string;
  /** Price of one AIC in USD used until an operator sets one (decimal string). */
  aicPriceUsd: string;
  /** Seed demo data (funded pools, demo accounts) into an empty database. */
  seedDemo: boolean;
  /** DEMO=true: a demo on purpose, even on a public address (every screen says so). */
  demo: boolean;
  /** The proxies whose X-Forwarded-For is believed (Fastify's trustProxy); false: none. */
  trustProxy: false | number | string[];
  appName: string;
  /** The address people reach this server at; the embedded provider's issuer lives under it. */
  publicUrl: string;
  /** The exchange's OpenID issuer; unset means the embedded provider at {publicUrl}/oidc. */
  oidcIssuer: string | undefined;
  oidcClientId: string;
  oidcClientSecret: string;
  /** The exchange's transfer API (contract/exchange.ts); unset: the embedded one at {publicUrl}/exchange. */
  exchangeApiUrl: string | undefined;
  /** How long one call to the exchange's API may take before it counts as unknown (ms). */
  exchangeTimeoutMs: number;
  /** Tries of one call to the exchange's API before it is left to the transfer worker. */
  exchangeAttempts: number;
  /** The key (32 bytes, base64 or hex) that encrypts holders' exchange tokens at rest. */
  exchangeTokenKey: Buffer;
  /** The secret that signs the exchange's webhooks (both sides). */
  exchangeWebhookSecret: string;
  /** Where this server's embedded exchange sends its webhooks; unset: its own platform. */
  exchangeWebhookUrl: string | undefined;
  /** Faults the embedded exchange makes (server/exchange/faults.ts): tests and drills only. */
  exchangeFaults: string | undefined;
  /**
   * How long each process may show a holder's balances at the exchange from its copy of the
   * exchange's answer (ms); a move of the holder's drops it sooner. 0: no copy.
   */
  exchangeBalanceTtlMs: number;
  /** What one operator may ask to fund in a UTC day, per asset (decimal strings). */
  fundingDailyLimit: Record<'AIC' | 'USDT', string>;
  /** How often unfinished transfers are driven to a final state (ms); 0: only by requests. */
  transferWorkerIntervalMs: number;
  /** Where the exchange may send people back to: the web app's home addresses. */
  redirectUris: string[];
  sessionTtlDays: number;
  /** Users who may operate the platform (review withdrawals, fund pools, settle). */
  operatorUserIds: bigint[];
  /**
   * The platform's own invitation code, offered in the bind step to holders who came without a
   * link; unset: none. Only its form is checked at start: its account may be made later.
   */
  defaultInviteCode: string | undefined;
  /** Earn defaults; versioned parameters (params table) override them from their day on. */
  earn: EarnDefaults;
  /** The least withdrawal or transfer out, in whole units of its asset (AIC or USDT), a decimal string. */
  withdrawMinimum: string;
  /** How often the in-process scheduler looks for work to settle; 0 turns it off. */
  settlementIntervalMs: number;
  /**
   * Holder ids a part of the steps crediting earning accounts spans (income/parts.ts): a buy
   * waits for at most about one part's payment, and every part costs a transaction.
   */
  settlementPartHolders: number;
  /** Let operators move the clock (demo and tests only). */
  clockAdjustable: boolean;
  /** Where the rate-limit counters are shared by every process (redis:// or rediss://); unset: each process counts alone. */
  redisUrl: string | undefined;
  rateLimitSignInPerMinute: number;
  rateLimitPostsPerMinute: number;
  /** Failed bearer tokens (401) per address and minute before that address gets 429. */
  rateLimitAuthFailuresPerMinute: number;
  /** GET calls per session and minute (every protected route). */
  rateLimitGetsPerMinute: number;
  /** Heavy reads (the CSV export, the monthly statement) per session and minute, on top of the GET limit. */
  rateLimitHeavyReadsPerMinute: number;
  /** Bearer token /metrics asks for; unset: no /metrics on the main port (unless METRICS_PORT). */
  metricsToken: string | undefined;
  /** Serve /metrics on this port of 127.0.0.1 only (and not on the main port); unset: off. */
  metricsPort: number | undefined;
  /** A request (headers and body) not received in full within this many ms gets 408; 0: no limit. */
  requestTimeoutMs: number;
  /** How long to wait for the exchange's servers (its OpenID provider) before answering 504. */
  upstreamTimeoutMs: number;
  /** Requests are shed (503 at once) while the event loop's mean delay is past this many ms; 0: never. */
  shedEventLoopDelayMs: number;
  /** Requests are shed (503 at once) while a checkout has waited this many ms for a database connection; 0: never. */
  shedPoolWaitMs: number;
  /** Requests are shed (503 at once) while this many are admitted and not yet answered; 0: never. */
  shedInFlight: number;
  /**
   * PostgreSQL: a statement the server's pool runs outside a transaction for a request (a holder's
   * read) is cancelled after this many ms and answers 503; transactions and background work are
   * not limited (db/statementTimeout.ts). 0: no limit.
   */
  readStatementTimeoutMs: number;
  /** The team rules' first version (later ones are scheduled parameters, team/rules.ts). */
  team: TeamRules;
  /** The team rules the environment sets (the others are defaults): only they are compared with an existing database's. */
  teamFromEnv: (keyof TeamRules)[];
  /** The recruitment activity: a network activity, then an assessment period. */
  recruitment: RecruitmentConfig;
  /** Demo and tests: the moment the server's clock starts at (it runs on from there). */
  clockStart: Date | undefined;
  /** Rate and earn parameter changes take effect at least this many days after they are scheduled. */
  paramNoticeDays: number;
  /** How long each process may answer the dashboard from its copy (ms); 0: always fresh. */
  dashboardCacheMs: number;
  /** How old the earn parameters in force may be when a process reuses them (they change only with notice). */
  paramsCacheMs: number;
  /** How long a process may reuse a live session it looked up (at most 1 s: revocations reach every process within it). */
  sessionCacheMs: number;
  /** Buys arriving within this many ms share one statement and one commit (group commit); 0 sends each alone. */
  buyBatchMs: number;
  /** Web Push: who the push services may contact about this server (VAPID subject, mailto: or https:). */
  vapidSubject: string;
  /** How often the process running the scheduler sends new notices to push subscriptions (ms); 0: never. */
  pushIntervalMs: number;
  /**
   * Push addresses on this machine or its network, and over http, are accepted: only while PUBLIC_URL
   * is itself local (a laptop, the tests). A public server sends only to public https addresses.
   */
  pushLocalEndpoints: boolean;
  /**
   * The push services sent to: a push address's host must be one of these names or under one
   * (`wns2-par02p.notify.windows.com` under `notify.windows.com`). Empty: any host.
   */
  pushAllowedHosts: string[];
};

export type RecruitmentConfig = {
  /** First UTC day of the activity (YYYY-MM-DD). */
  start: string;
  activityDays: number;
  /** Days of assessment that follow the activity. */
  assessmentDays: number;
};

export type EarnDefaults = {
  dailyQuota: string;
  minimum: string;
  powerMultiplier: string;
  coefficientBase: string;
  launchDay: string;
  coefficientMaxDays: string;
  poolDailyOutputRate: string;
  /** The most a 360-day order's static earning may be in a day, as a share of its principal. */
  poolMaxDailyRate: string;
  /** Each rate-earning product's daily rate (the registry's products; `EARN_<PRODUCT>_DAILY_RATE`). */
  dailyRates: Partial<Record<Product, string>>;
};

/** Connections in a server process's PostgreSQL pool (db/connect.ts). */
export const POOL_SIZE = 20;

/** A setting the server cannot start with: its message is one line naming the variable. */
export class ConfigError extends Error {}

/**
 * What the server found at start-up that stops it (a database that does not answer, a port in
 * use, a folder it cannot write): one line naming the variable and what to do, like ConfigError.
 */
export class StartupError extends Error {}

const given = (env: NodeJS.ProcessEnv, name: string) => {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
};
const refuse = (name: string, what: string, value: string): never => {
  throw new ConfigError(`${name} must be ${what} (got "${value}")`);
};

function envString(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  return given(env, name) ?? fallback;
}

function envInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = given(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  // Digits only: "30s" or "1e3" is a typo, not 30 or 1000.
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value)) refuse(name, 'a whole number', raw);
  return value;
}

function envPositive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = envInt(env, name, fallback);
  if (value < 1) refuse(name, 'a whole number above 0', String(value));
  return value;
}

function envBool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = given(env, name);
  if (raw === undefined) return fallback;
  if (raw !== 'true' && raw !== 'false') refuse(name, 'true or false', raw);
  return raw === 'true';
}

/** A decimal number (a rate, a price, a multiplier), kept as written. */
function envDecimal(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = envString(env, name, fallback);
  if (!/^\d+(\.\d+)?$/.test(value)) refuse(name, 'a decimal number such as 0.01', value);
  return value;
}

/** A decimal amount (exactly, by contract/money.ts), kept as its canonical string. */
function envAmount(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = envString(env, name, fallback);
  const parsed = parseAmount(value);
  if (!parsed.ok) refuse(name, 'a decimal amount with at most 8 decimals', value);
  return formatUnits(parsed.ok ? parsed.value : 0n);
}

/** `value`, which `name` gave, if it is an http or https address. */
function checkUrl(name: string, value: string): string {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) refuse(name, 'an http or https address', value);
  return value;
}

function envUrl(env: NodeJS.ProcessEnv, name: string, fallback: string): string;
function envUrl(env: NodeJS.ProcessEnv, name: string): string | undefined;
function envUrl(env: NodeJS.ProcessEnv, name: string, fallback?: string): string | undefined {
  const value = given(env, name) ?? fallback;
  return value === undefined ? undefined : checkUrl(name, value);
}

function envRedisUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = given(env, name);
  if (value !== undefined && (!URL.canParse(value) || !/^rediss?:$/.test(new URL(value).protocol))) {
    refuse(name, 'a redis:// or rediss:// address', value);
  }
  return value;
}

/** A password in a connection string, left out of messages. */
const withoutPassword = (value: string) => value.replace(/:[^:@/]*@/, ':…@');

/** DATABASE_URL: a postgres:// (or postgresql://) address; anything else pg would read as a host name. */
function envDatabaseUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = given(env, name);
  if (value !== undefined && (!URL.canParse(value) || !/^postgres(ql)?:$/.test(new URL(value).protocol))) {
    refuse(name, 'a postgres:// address such as postgres://user:password@host:5432/database', withoutPassword(value));
  }
  return value;
}

function envVapidSubject(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = envString(env, name, fallback);
  if (!URL.canParse(value) || !/^(mailto|https):$/.test(new URL(value).protocol)) refuse(name, 'a mailto: or https: address', value);
  return value;
}

function envDay(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = envString(env, name, fallback);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    refuse(name, 'a day written YYYY-MM-DD', value);
  }
  return value;
}

function envOneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[], fallback: T): T {
  const value = envString(env, name, fallback);
  if (!(allowed as readonly string[]).includes(value)) refuse(name, `one of ${allowed.join(', ')}`, value);
  return value as T;
}

const list = (value: string | undefined) =>
  (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);

/** The browsers' push services (Chrome, Firefox, Safari, Edge): where a public server sends pushes unless told. */
const PUSH_SERVICES = ['fcm.googleapis.com', 'updates.push.services.mozilla.com', 'push.services.mozilla.com', 'web.push.apple.com', 'notify.windows.com'];

/** PUSH_ALLOWED_HOSTS: host names separated by commas, or `*` for any host (an empty list). */
function envPushHosts(env: NodeJS.ProcessEnv, name: string, fallback: string[]): string[] {
  const raw = given(env, name);
  if (raw === undefined) return fallback;
  if (raw.trim() === '*') return [];
  const hosts = list(raw).map((host) => host.toLowerCase().replace(/\.$/, ''));
  const names = hosts.every((host) => /^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(host));
  if (!names || hosts.length === 0) refuse(name, 'host names separated by commas (fcm.googleapis.com,web.push.apple.com), or *', raw);
  return hosts;
}

function clockStart(env: NodeJS.ProcessEnv): Date | undefined {
  const raw = given(env, 'CLOCK_START');
  if (raw === undefined) return undefined;
  const at = new Date(raw);
  if (Number.isNaN(at.getTime())) refuse('CLOCK_START', 'a moment such as 2026-11-01T08:00:00Z', raw);
  return at;
}

/** A 32-byte key written in base64 or hex. */
function envKey(env: NodeJS.ProcessEnv, name: string, fallback: () => Buffer): Buffer {
  const raw = given(env, name);
  if (raw === undefined) return fallback();
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32) refuse(name, '32 bytes written in base64 or hex (openssl rand -base64 32)', '…');
  return key;
}

function userIds(env: NodeJS.ProcessEnv, name: string): bigint[] {
  return list(env[name]).map((id) => (/^\d+$/.test(id) ? BigInt(id) : refuse(name, 'user ids separated by commas', id)));
}

/** An invitation code of the form the server makes them in (normalized); whether a holder has it is asked later. */
function envInviteCode(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = given(env, name);
  if (raw === undefined) return undefined;
  const code = normalizeInviteCode(raw);
  if (!isWellFormedInviteCode(code)) {
    refuse(name, `an invitation code: ${INVITE_CODE_LENGTH} characters of ${INVITE_CODE_ALPHABET}`, raw);
  }
  return code;
}

/** `FUNDING_DAILY_LIMIT`: `AIC:amount,USDT:amount`, both assets, each a decimal amount. */
function fundingLimits(value: string): Record<'AIC' | 'USDT', string> {
  const pairs = Object.fromEntries(value.split(',').map((pair) => pair.trim().split(':') as [string, string | undefined]));
  const limit = (asset: 'AIC' | 'USDT') => {
    const parsed = parseAmount(pairs[asset] ?? '');
    if (!parsed.ok || Object.keys(pairs).some((key) => key !== 'AIC' && key !== 'USDT')) {
      refuse('FUNDING_DAILY_LIMIT', 'AIC:<amount>,USDT:<amount>', value);
    }
    return formatUnits(parsed.ok ? parsed.value : 0n);
  };
  return { AIC: limit('AIC'), USDT: limit('USDT') };
}

/** `EXCHANGE_FAULTS`: name=number pairs (server/exchange/faults.ts reads them). */
function checkFaults(value: string | undefined): string | undefined {
  if (value !== undefined && !/^\s*(\w+=[\d.]+\s*)(,\s*\w+=[\d.]+\s*)*$/.test(value)) {
    refuse('EXCHANGE_FAULTS', 'name=number pairs separated by commas, such as timeoutAfterApply=0.1', value);
  }
  return value;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** The embedded exchange's client secret: a demo value, never for a real exchange. */
const DEMO_CLIENT_SECRET = 'embedded-provider-demo-secret';

/** Settings that are each fine alone and wrong together. */
function checkTogether(env: NodeJS.ProcessEnv, config: Config): void {
  if (!config.oidcIssuer) return;
  if (given(env, 'OIDC_CLIENT_SECRET') === undefined) {
    throw new ConfigError('OIDC_ISSUER is set but OIDC_CLIENT_SECRET is not: set the secret the exchange gave this app');
  }
  if (config.clockAdjustable) {
    throw new ConfigError('CLOCK_ADJUSTABLE=true lets operators move the clock: not with a real exchange (OIDC_ISSUER); unset it');
  }
  if (!config.exchangeApiUrl) {
    throw new ConfigError(
      "OIDC_ISSUER is set but EXCHANGE_API_URL is not: set the address of the exchange's transfer API (for another instance's embedded exchange, http://HOST:PORT/exchange)",
    );
  }
}

/**
 * This machine's own IPv4 addresses other than loopback (its LAN address, say): with the
 * embedded exchange, a phone on the network opens the app there and signs in with no setting.
 */
function ownAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((nic) => nic !== undefined && nic.family === 'IPv4' && !nic.internal)
    .map((nic) => (nic as { address: string }).address);
}

/**
 * Where the exchange may send people back to. Unset: PUBLIC_URL, localhost and 127.0.0.1, and,
 * with the embedded exchange (no OIDC_ISSUER), this machine's own addresses at PORT.
 */
function defaultRedirectUris(publicUrl: string, port: number, embedded: boolean): string[] {
  const local = [`${publicUrl}/`, `http://localhost:${port}/`, `http://127.0.0.1:${port}/`];
  const own = embedded ? ownAddresses().map((address) => `http://${address}:${port}/`) : [];
  return [...new Set([...local, ...own])];
}

/**
 * On a public address, no demo setting unless DEMO=true says a public demo is meant: the embedded
 * exchange lets anyone sign in as anyone (the operator too) and hands out demo money.
 * `demoDefaults`: the address is local, or DEMO=true (worked out once in loadConfig).
 */
function checkPublic(env: NodeJS.ProcessEnv, config: Config, demoDefaults: boolean): void {
  if (demoDefaults) return;
  const where = `PUBLIC_URL ${config.publicUrl} is a public address`;
  const orDemo = 'or set DEMO=true for a public demo';
  if (!config.oidcIssuer) {
    throw new ConfigError(`${where} and OIDC_ISSUER is not set: the embedded demo exchange lets anyone sign in as anyone. Set OIDC_ISSUER and OIDC_CLIENT_SECRET to your exchange's, ${orDemo}`);
  }
  if (config.oidcClientSecret === DEMO_CLIENT_SECRET) {
    throw new ConfigError(`OIDC_CLIENT_SECRET is the embedded exchange's demo secret and ${where}: set the secret your exchange gave this app, ${orDemo}`);
  }
  if (!given(env, 'EXCHANGE_TOKEN_KEY')) {
    throw new ConfigError(`EXCHANGE_TOKEN_KEY is not set and ${where}: set 32 random bytes (openssl rand -base64 32) to encrypt holders' exchange tokens, ${orDemo}`);
  }
  if (config.seedDemo) {
    throw new ConfigError(`SEED_DEMO=true fills the books with demo money and ${where}: unset it, ${orDemo}`);
  }
}

/** The variable that seeds each team rule's first version. */
export const TEAM_RULE_VARIABLES = {
  effectiveMinimum: 'EFFECTIVE_MINIMUM',
  levelThresholds: 'LEVEL_THRESHOLDS',
  rebateRates: 'REBATE_RATES',
  unlockTiers: 'UNLOCK_TIERS',
  lockupDays: 'LOCKUP_DAYS',
} as const satisfies Record<keyof TeamRules, string>;

/** A team rule's text, refused by the variable's name (the stored parameter's means nothing to whoever set it). */
function envTeamRule(env: NodeJS.ProcessEnv, name: (typeof TEAM_RULE_VARIABLES)[keyof TeamRules], fallback: string): string {
  const value = envString(env, name, fallback);
  const key = (Object.keys(TEAM_RULE_VARIABLES) as (keyof TeamRules)[]).find((k) => TEAM_RULE_VARIABLES[k] === name) as keyof TeamRules;
  const problem = teamRuleProblem(key, value);
  if (problem) throw new ConfigError(`${name} "${value}": ${problem}`);
  return value;
}

function trustProxy(env: NodeJS.ProcessEnv): false | number | string[] {
  const parsed = parseTrustProxy(given(env, 'TRUST_PROXY'));
  if (!parsed.ok) refuse('TRUST_PROXY', 'proxy addresses or CIDR ranges separated by commas, or a number of hops', String(env.TRUST_PROXY));
  return parsed.ok ? parsed.trust : false;
}

/**
 * What marks a value copied from deploy/env.example and not replaced: a CHANGE-ME secret, or an
 * address under example.com, .net or .org (names reserved for examples, never a deployment's).
 */
const PLACEHOLDER = /change-?me|(?:^|(?<=[@/.]))(?:[a-z0-9-]+\.)*example\.(?:com|net|org)(?=$|[:/?#,\s])/i;

/** The first variable read (in `names`) that still holds a placeholder, refused in one line. */
function refusePlaceholders(env: NodeJS.ProcessEnv, names: Iterable<string>): void {
  for (const name of names) {
    const found = PLACEHOLDER.exec(given(env, name) ?? '')?.[0];
    if (found) {
      throw new ConfigError(`${name} still holds deploy/env.example's placeholder (${found}): set this deployment's own value`);
    }
  }
}

export type LoadOptions = {
  /**
   * Refuse a variable the server reads that still holds deploy/env.example's placeholder: the
   * server's own start does; the tests, whose example addresses are under example.com, do not.
   */
  refusePlaceholders?: boolean;
};

/** The configuration from `env`; throws ConfigError, one line naming the variable, on a value it cannot use. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadOptions = {}): Config {
  if (!options.refusePlaceholders) return readConfig(env);
  // Only the variables the server reads are looked at (not the shell's others), the way it reads them.
  const read = new Set<string>();
  const watched = new Proxy(env, {
    get(target, name) {
      if (typeof name === 'string') read.add(name);
      return Reflect.get(target, name);
    },
  });
  try {
    const config = readConfig(watched);
    refusePlaceholders(env, read);
    return config;
  } catch (error) {
    // A placeholder is said first: it explains a value refused for its form (EXCHANGE_TOKEN_KEY=CHANGE-ME).
    refusePlaceholders(env, read);
    throw error;
  }
}

function readConfig(env: NodeJS.ProcessEnv): Config {
  const port = envInt(env, 'PORT', 3000);
  const publicUrl = envUrl(env, 'PUBLIC_URL', `http://localhost:${port}`).replace(/\/$/, '');
  const demo = envBool(env, 'DEMO', false);
  // Demo defaults hold where only this machine or its network reaches the app, or for a demo.
  const demoDefaults = demo || isLocalHost(new URL(publicUrl).hostname);
  const redirectUris = list(env.OAUTH_REDIRECT_URIS).map((uri) => checkUrl('OAUTH_REDIRECT_URIS', uri));
  const config: Config = {
    port,
    host: envString(env, 'HOST', '0.0.0.0'),
    dataDir: envString(env, 'DATA_DIR', './data'),
    databaseUrl: envDatabaseUrl(env, 'DATABASE_URL'),
    databasePrepare: envBool(env, 'DATABASE_PREPARED_STATEMENTS', true),
    logLevel: envOneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    webDir: envString(env, 'WEB_DIR', './dist/web'),
    aicPriceUsd: envDecimal(env, 'AIC_PRICE_USD', '0.85'),
    seedDemo: envBool(env, 'SEED_DEMO', demoDefaults),
    demo,
    trustProxy: trustProxy(env),
    appName: envString(env, 'APP_NAME', 'AIC Earn'),
    publicUrl,
    oidcIssuer: envUrl(env, 'OIDC_ISSUER'),
    oidcClientId: envString(env, 'OIDC_CLIENT_ID', 'aic-earn'),
    oidcClientSecret: envString(env, 'OIDC_CLIENT_SECRET', DEMO_CLIENT_SECRET),
    exchangeApiUrl: envUrl(env, 'EXCHANGE_API_URL')?.replace(/\/$/, ''),
    exchangeTimeoutMs: envInt(env, 'EXCHANGE_TIMEOUT_MS', 10_000),
    exchangeAttempts: Math.max(1, envInt(env, 'EXCHANGE_ATTEMPTS', 3)),
    // The demo's key is derived from the demo secret; a public address must set its own (checkPublic).
    exchangeTokenKey: envKey(env, 'EXCHANGE_TOKEN_KEY', () =>
      createHash('sha256').update(`exchange-token-key:${envString(env, 'OIDC_CLIENT_SECRET', DEMO_CLIENT_SECRET)}`).digest(),
    ),
    exchangeWebhookSecret: envString(env, 'EXCHANGE_WEBHOOK_SECRET', envString(env, 'OIDC_CLIENT_SECRET', DEMO_CLIENT_SECRET)),
    exchangeWebhookUrl: envUrl(env, 'EXCHANGE_WEBHOOK_URL'),
    exchangeFaults: checkFaults(given(env, 'EXCHANGE_FAULTS')),
    exchangeBalanceTtlMs: envInt(env, 'EXCHANGE_BALANCE_TTL_MS', 5_000),
    transferWorkerIntervalMs: envInt(env, 'TRANSFER_WORKER_INTERVAL_MS', 5_000),
    fundingDailyLimit: fundingLimits(given(env, 'FUNDING_DAILY_LIMIT') ?? 'AIC:1000000,USDT:100000'),
    redirectUris: redirectUris.length ? redirectUris : defaultRedirectUris(publicUrl, port, !env.OIDC_ISSUER),
    sessionTtlDays: envInt(env, 'SESSION_TTL_DAYS', 30),
    operatorUserIds: userIds(env, 'OPERATOR_USER_IDS'),
    defaultInviteCode: envInviteCode(env, 'DEFAULT_INVITE_CODE'),
    earn: {
      dailyQuota: envDecimal(env, 'EARN_DAILY_QUOTA', '10000'),
      minimum: envDecimal(env, 'EARN_MINIMUM', '1'),
      powerMultiplier: envDecimal(env, 'POWER_MULTIPLIER', '5'),
      coefficientBase: envDecimal(env, 'COEFFICIENT_BASE', '1.02'),
      launchDay: envDay(env, 'LAUNCH_DAY', '2026-11-01'),
      coefficientMaxDays: String(envInt(env, 'COEFFICIENT_MAX_DAYS', 360)),
      poolDailyOutputRate: envDecimal(env, 'POOL_DAILY_OUTPUT_RATE', '0.01'),
      poolMaxDailyRate: envDecimal(env, 'POOL_MAX_DAILY_RATE', '0.005'),
      dailyRates: Object.fromEntries(
        DAILY_RATE_PARAMS.map(({ product }) => [
          product,
          envDecimal(env, `EARN_${product.toUpperCase()}_DAILY_RATE`, productOf(product).defaultDailyRate ?? '0'),
        ]),
      ),
    },
    withdrawMinimum: envAmount(env, 'WITHDRAW_MINIMUM', '1'),
    settlementIntervalMs: envInt(env, 'SETTLEMENT_INTERVAL_MS', 60_000),
    settlementPartHolders: envPositive(env, 'SETTLEMENT_PART_HOLDERS', 20_000),
    // A real exchange (OIDC_ISSUER) means a real deployment: the clock stays put unless told.
    clockAdjustable: envBool(env, 'CLOCK_ADJUSTABLE', demoDefaults && !given(env, 'OIDC_ISSUER')),
    redisUrl: envRedisUrl(env, 'REDIS_URL'),
    rateLimitSignInPerMinute: envInt(env, 'RATE_LIMIT_SIGNIN_PER_MINUTE', 60),
    rateLimitPostsPerMinute: envInt(env, 'RATE_LIMIT_POSTS_PER_MINUTE', 120),
    rateLimitAuthFailuresPerMinute: envInt(env, 'RATE_LIMIT_AUTH_FAILURES_PER_MINUTE', 30),
    rateLimitGetsPerMinute: envInt(env, 'RATE_LIMIT_GETS_PER_MINUTE', 600),
    rateLimitHeavyReadsPerMinute: envInt(env, 'RATE_LIMIT_HEAVY_READS_PER_MINUTE', 20),
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsPort: env.METRICS_PORT ? envInt(env, 'METRICS_PORT', 0) : undefined,
    requestTimeoutMs: envInt(env, 'REQUEST_TIMEOUT_MS', 30_000),
    upstreamTimeoutMs: envInt(env, 'UPSTREAM_TIMEOUT_MS', 10_000),
    // A second's mean delay is a process that stopped serving; less is a busy machine, whose
    // requests the in-flight and pool bounds already keep short.
    shedEventLoopDelayMs: envInt(env, 'SHED_EVENT_LOOP_DELAY_MS', 1000),
    // A queue that serves each request in a few milliseconds is full throughput, not overload;
    // one whose head has waited this long will not answer an admitted request within a second.
    shedPoolWaitMs: envInt(env, 'SHED_POOL_WAIT_MS', 250),
    // A few hundred answered in turn is well under a second at the rates a process serves.
    shedInFlight: envInt(env, 'SHED_IN_FLIGHT', 128),
    readStatementTimeoutMs: envInt(env, 'READ_STATEMENT_TIMEOUT_MS', 5_000),
    clockStart: clockStart(env),
    paramNoticeDays: envInt(env, 'PARAM_NOTICE_DAYS', 7),
    dashboardCacheMs: envInt(env, 'DASHBOARD_CACHE_MS', 1000),
    paramsCacheMs: envInt(env, 'PARAMS_CACHE_MS', 1000),
    sessionCacheMs: Math.min(envInt(env, 'SESSION_CACHE_MS', 1000), 1000),
    buyBatchMs: envInt(env, 'BUY_BATCH_MS', 1),
    vapidSubject: envVapidSubject(env, 'VAPID_SUBJECT', `mailto:push@${new URL(publicUrl).hostname}`),
    pushIntervalMs: envInt(env, 'PUSH_INTERVAL_MS', 5000),
    pushLocalEndpoints: isLocalHost(new URL(publicUrl).hostname),
    // A public server sends only to the browsers' push services; a laptop or the tests to their own.
    pushAllowedHosts: envPushHosts(env, 'PUSH_ALLOWED_HOSTS', isLocalHost(new URL(publicUrl).hostname) ? [] : PUSH_SERVICES),
    team: parseTeamRules({
      effectiveMinimum: envTeamRule(env, 'EFFECTIVE_MINIMUM', '10'),
      levelThresholds: envTeamRule(env, 'LEVEL_THRESHOLDS', '1000,10000,50000,200000,1000000'),
      rebateRates: envTeamRule(env, 'REBATE_RATES', '0.10,0.05,0.03,0.02,0.01'),
      unlockTiers: envTeamRule(env, 'UNLOCK_TIERS', '10000:0.5,5000:0.3'),
      lockupDays: envTeamRule(env, 'LOCKUP_DAYS', '10'),
    }),
    teamFromEnv: (Object.keys(TEAM_RULE_VARIABLES) as (keyof TeamRules)[]).filter((key) => given(env, TEAM_RULE_VARIABLES[key]) !== undefined),
    recruitment: {
      start: envDay(env, 'RECRUITMENT_START', envString(env, 'LAUNCH_DAY', '2026-11-01')),
      activityDays: envInt(env, 'RECRUITMENT_ACTIVITY_DAYS', 60),
      assessmentDays: envInt(env, 'RECRUITMENT_ASSESSMENT_DAYS', 60),
    },
  };
  checkTogether(env, config);
  checkPublic(env, config, demoDefaults);
  return config;
}
