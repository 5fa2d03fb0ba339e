import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { POOL_SIZE } from '../config.ts';
import { claimDataDir } from './dataDirLock.ts';
import { watchPool } from './pool.ts';
import { PreparedStatements } from './prepared.ts';
import { liftReadTimeout, readTimeoutOption } from './statementTimeout.ts';
import { makePrivate, preparePrivateDir } from './privateDir.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;

/** Integer sums come back as numeric; money must never pass through a float. */
const toBigInt = (value: string): bigint | string => (/^-?\d+$/.test(value) ? BigInt(value) : value);

export type DbOptions = {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  /** PostgreSQL only: run in this schema (tests isolate themselves this way). */
  schema?: string | undefined;
  poolSize?: number;
  /**
   * PostgreSQL only: the statements run again and again outside a transaction keep their plan on
   * the connection (db/prepared.ts). Off behind a pooler that does not carry prepared statements
   * between its server connections (PgBouncer before 1.21 in transaction mode). Default on.
   */
  prepare?: boolean | undefined;
  /**
   * PostgreSQL only: statements outside a transaction are cancelled after this many ms, unless
   * run inside `withoutReadTimeout` (db/statementTimeout.ts). The server's own pool only
   * (READ_STATEMENT_TIMEOUT_MS); unset or 0: no limit.
   */
  readStatementTimeoutMs?: number | undefined;
};

export type DbHandle = { db: Db; kind: 'postgres' | 'pglite'; close: () => Promise<void> };

export async function connect(options: DbOptions): Promise<DbHandle> {
  if (options.databaseUrl) return connectPostgres(options.databaseUrl, options);
  return connectPglite(options.dataDir);
}

async function connectPostgres(url: string, options: DbOptions): Promise<DbHandle> {
  const readTimeoutMs = options.readStatementTimeoutMs ?? 0;
  const startup = [
    ...(options.schema ? [`-c search_path=${options.schema}`] : []),
    ...(readTimeoutMs > 0 ? [readTimeoutOption(readTimeoutMs)] : []),
  ].join(' ');
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? POOL_SIZE,
    // A request waits at most this long for a connection (a new one, or a free one of a full
    // pool), then answers 503 instead of hanging while the database is unreachable. Keepalive
    // lets the kernel notice a peer that vanished without closing the connection. There is no
    // client-side query timeout (pg's leaves the connection busy with the abandoned query). The
    // statement_timeout, when given, limits only what runs outside a transaction and outside
    // background work (db/statementTimeout.ts): a settlement statement over a million orders
    // rightly takes seconds.
    connectionTimeoutMillis: 5_000,
    keepAlive: true,
    ...(startup ? { options: startup } : {}),
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
        if (oid === INT8 || oid === NUMERIC) return toBigInt;
        if (oid === DATE) return (value: string) => value;
        return pg.types.getTypeParser(oid, format);
      }) as typeof pg.types.getTypeParser,
    },
  });
  // A connection that breaks (database restarted, network cut) is an 'error' event on the pool
  // when idle, or on the client itself while checked out between two queries of a transaction;
  // unheard, either crashes the process. The pool drops a broken connection and opens a new one
  // when needed; the request that used it fails on its next query and answers 503.
  pool.on('error', () => {});
  const statements = options.prepare === false ? undefined : new PreparedStatements();
  pool.on('connect', (client) => {
    client.on('error', () => {});
    statements?.install(client);
    if (readTimeoutMs > 0) liftReadTimeout(client);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  watchPool(db, pool);
  return { db, kind: 'postgres', close: () => db.destroy() };
}

/** PGlite's options for the app: exact integers and dates as text (`loadDataDir`: a backup to start from). */
export const pgliteOptions = (loadDataDir?: Blob) => ({
  parsers: { [INT8]: toBigInt, [NUMERIC]: toBigInt, [DATE]: (value: string) => value },
  relaxedDurability: false,
  ...(loadDataDir ? { loadDataDir } : {}),
});

/**
 * PGlite on `dataDir` (memory without one), held by this process alone: a second server, or a
 * backup while this one runs, is refused (claimDataDir). The folder is its owner's alone: an
 * existing one open to others is refused (DataDirNotPrivate), a new one is made 0700, and what
 * PGlite wrote wide on opening is narrowed (files it makes later come out 0600 and folders 0700
 * whatever the umask, and none is reachable through the folder anyway). `close` closes it and lets go.
 */
export async function openPglite(dataDir: string | undefined): Promise<{ client: PGlite; close: () => Promise<void> }> {
  if (dataDir) preparePrivateDir(dataDir);
  const release = dataDir ? claimDataDir(dataDir) : () => {};
  let client: PGlite;
  try {
    client = await createPrivate(dataDir);
  } catch (error) {
    release();
    throw error;
  }
  return {
    client,
    close: async () => {
      if (!client.closed) await client.close();
      release();
    },
  };
}

/** PGlite on `dataDir`, its files narrowed to the owner once it has written them; closed again if that fails. */
async function createPrivate(dataDir: string | undefined): Promise<PGlite> {
  const client = await PGlite.create(dataDir ?? 'memory://', pgliteOptions());
  try {
    if (dataDir) makePrivate(dataDir);
  } catch (error) {
    await client.close();
    throw error;
  }
  return client;
}

async function connectPglite(dataDir: string | undefined): Promise<DbHandle> {
  const pglite = await openPglite(dataDir);
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite.client) });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await db.destroy();
      await pglite.close();
    },
  };
}
