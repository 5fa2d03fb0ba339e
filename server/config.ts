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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: envInt(env, 'PORT', 3000),
    host: envString(env, 'HOST', '0.0.0.0'),
    dataDir: envString(env, 'DATA_DIR', './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    logLevel: envString(env, 'LOG_LEVEL', 'info'),
    webDir: envString(env, 'WEB_DIR', './dist/web'),
    aicPriceUsd: envString(env, 'AIC_PRICE_USD', '0.85'),
    seedDemo: envString(env, 'SEED_DEMO', 'true') !== 'false',
    appName: envString(env, 'APP_NAME', 'AIC Earn'),
  };
}
