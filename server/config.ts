import { networkInterfaces } from 'node:os';
import { formatUnits, parseAmount } from '../contract/money.ts';
import { parseTeamRules, type TeamRules } from '../contract/teamRules.ts';
import { DAILY_RATE_PARAMS, type Product, productOf } from '../contract/products.ts';

/**
 * Every configuration variable of the server, read from the environment once. Business
 * numbers here are defaults; versioned parameters in the database override them per day.
 */
export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: string;
  webDir: string;
  /** Price of one AIC in USD used until an operator sets one (decimal string). */
  aicPriceUsd: string;
  /** Seed demo data (funded pools, demo accounts) into an empty database. */
  seedDemo: boolean;
  appName: string;
  /** The address people reach this server at; the embedded provider's issuer lives under it. */
  publicUrl: string;
  /** The exchange's OpenID issuer; unset means the embedded provider at {publicUrl}/oidc. */
  oidcIssuer: string | undefined;
  oidcClientId: string;
  oidcClientSecret: string;
  /** Where the exchange may send people back to: the web app's home addresses. */
  redirectUris: string[];
  sessionTtlDays: number;
  /** Users who may operate the platform (review withdrawals, fund pools, settle). */
  operatorUserIds: bigint[];
  /** Earn defaults; versioned parameters (params table) override them from their day on. */
  earn: EarnDefaults;
  /** The least withdrawal or transfer out, in whole units of its asset (AIC or USDT), a decimal string. */
  withdrawMinimum: string;
  /** How often the in-process scheduler looks for work to settle; 0 turns it off. */
  settlementIntervalMs: number;
  /** Let operators move the clock (demo and tests only). */
  clockAdjustable: boolean;
  rateLimitSignInPerMinute: number;
  rateLimitPostsPerMinute: number;
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
  team: TeamConfig;
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
};

/** The team rules' first version (later ones are scheduled parameters, team/rules.ts). */
export type TeamConfig = TeamRules;

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
  /** Each rate-earning product's daily rate (the registry's products; `EARN_<PRODUCT>_DAILY_RATE`). */
  dailyRates: Partial<Record<Product, string>>;
};

function envString(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = env[name];
  return value === undefined || value === '' ? fallback : value;
}

function envInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number.parseInt(raw, 10);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a whole number`);
  return value;
}

/** A decimal amount (exactly, by contract/money.ts), kept as its canonical string. */
function envAmount(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const parsed = parseAmount(envString(env, name, fallback));
  if (!parsed.ok) throw new Error(`${name} must be a decimal amount with at most 8 decimals`);
  return formatUnits(parsed.value);
}

const list = (value: string | undefined) =>
  (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);

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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = envInt(env, 'PORT', 3000);
  const publicUrl = envString(env, 'PUBLIC_URL', `http://localhost:${port}`).replace(/\/$/, '');
  const redirectUris = list(env.OAUTH_REDIRECT_URIS);
  return {
    port,
    host: envString(env, 'HOST', '0.0.0.0'),
    dataDir: envString(env, 'DATA_DIR', './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    logLevel: envString(env, 'LOG_LEVEL', 'info'),
    webDir: envString(env, 'WEB_DIR', './dist/web'),
    aicPriceUsd: envString(env, 'AIC_PRICE_USD', '0.85'),
    seedDemo: envString(env, 'SEED_DEMO', 'true') !== 'false',
    appName: envString(env, 'APP_NAME', 'AIC Earn'),
    publicUrl,
    oidcIssuer: env.OIDC_ISSUER || undefined,
    oidcClientId: envString(env, 'OIDC_CLIENT_ID', 'aic-earn'),
    oidcClientSecret: envString(env, 'OIDC_CLIENT_SECRET', 'embedded-provider-demo-secret'),
    redirectUris: redirectUris.length ? redirectUris : defaultRedirectUris(publicUrl, port, !env.OIDC_ISSUER),
    sessionTtlDays: envInt(env, 'SESSION_TTL_DAYS', 30),
    operatorUserIds: list(env.OPERATOR_USER_IDS).map((id) => BigInt(id)),
    earn: {
      dailyQuota: envString(env, 'EARN_DAILY_QUOTA', '10000'),
      minimum: envString(env, 'EARN_MINIMUM', '1'),
      powerMultiplier: envString(env, 'POWER_MULTIPLIER', '5'),
      coefficientBase: envString(env, 'COEFFICIENT_BASE', '1.02'),
      launchDay: envString(env, 'LAUNCH_DAY', '2026-11-01'),
      coefficientMaxDays: envString(env, 'COEFFICIENT_MAX_DAYS', '360'),
      poolDailyOutputRate: envString(env, 'POOL_DAILY_OUTPUT_RATE', '0.01'),
      dailyRates: Object.fromEntries(
        DAILY_RATE_PARAMS.map(({ product }) => [
          product,
          envString(env, `EARN_${product.toUpperCase()}_DAILY_RATE`, productOf(product).defaultDailyRate ?? '0'),
        ]),
      ),
    },
    withdrawMinimum: envAmount(env, 'WITHDRAW_MINIMUM', '1'),
    settlementIntervalMs: envInt(env, 'SETTLEMENT_INTERVAL_MS', 60_000),
    clockAdjustable: envString(env, 'CLOCK_ADJUSTABLE', 'true') === 'true',
    rateLimitSignInPerMinute: envInt(env, 'RATE_LIMIT_SIGNIN_PER_MINUTE', 60),
    rateLimitPostsPerMinute: envInt(env, 'RATE_LIMIT_POSTS_PER_MINUTE', 120),
    rateLimitGetsPerMinute: envInt(env, 'RATE_LIMIT_GETS_PER_MINUTE', 600),
    rateLimitHeavyReadsPerMinute: envInt(env, 'RATE_LIMIT_HEAVY_READS_PER_MINUTE', 20),
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsPort: env.METRICS_PORT ? envInt(env, 'METRICS_PORT', 0) : undefined,
    requestTimeoutMs: envInt(env, 'REQUEST_TIMEOUT_MS', 30_000),
    upstreamTimeoutMs: envInt(env, 'UPSTREAM_TIMEOUT_MS', 10_000),
    clockStart: env.CLOCK_START ? new Date(env.CLOCK_START) : undefined,
    paramNoticeDays: envInt(env, 'PARAM_NOTICE_DAYS', 7),
    dashboardCacheMs: envInt(env, 'DASHBOARD_CACHE_MS', 1000),
    paramsCacheMs: envInt(env, 'PARAMS_CACHE_MS', 1000),
    sessionCacheMs: Math.min(envInt(env, 'SESSION_CACHE_MS', 1000), 1000),
    buyBatchMs: envInt(env, 'BUY_BATCH_MS', 1),
    team: parseTeamRules({
      effectiveMinimum: envString(env, 'EFFECTIVE_MINIMUM', '10'),
      levelThresholds: env.LEVEL_THRESHOLDS || '1000,10000,50000,200000,1000000',
      rebateRates: env.REBATE_RATES || '0.10,0.05,0.03,0.02,0.01',
      unlockTiers: env.UNLOCK_TIERS || '10000:0.5,5000:0.3',
      lockupDays: env.LOCKUP_DAYS || '10',
    }),
    recruitment: {
      start: envString(env, 'RECRUITMENT_START', envString(env, 'LAUNCH_DAY', '2026-11-01')),
      activityDays: envInt(env, 'RECRUITMENT_ACTIVITY_DAYS', 60),
      assessmentDays: envInt(env, 'RECRUITMENT_ASSESSMENT_DAYS', 60),
    },
  };
}
