import { sql } from 'kysely';
import { StartupError } from '../config.ts';
import { connect, type DbHandle, type DbOptions } from './connect.ts';
import { DataDirBusy } from './dataDirLock.ts';

/** Where a DATABASE_URL points, without its password: host and port, and the database. */
function place(url: string): { where: string; database: string; user: string } {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || decodeURIComponent(parsed.username) || 'postgres';
  return { where: parsed.host || 'the local socket', database, user: decodeURIComponent(parsed.username) };
}

/** The error code and message of a failed connection (pg's, or the socket's underneath). */
function reason(error: unknown): { code: string; message: string } {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return { code: typeof code === 'string' ? code : '', message: message.split('\n')[0] ?? message };
}

/** One line on a database the server cannot use: what DATABASE_URL names, what happened, what to do. */
function databaseProblem(url: string, error: unknown): string {
  const { where, database, user } = place(url);
  const { code, message } = reason(error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `DATABASE_URL names the host ${new URL(url).hostname}, which does not resolve (${message}): correct the host in DATABASE_URL`;
  }
  if (code === 'ECONNREFUSED' || code === 'ENOENT') {
    return `DATABASE_URL: no PostgreSQL answers at ${where} (${message}): start it there, or correct the host and port in DATABASE_URL`;
  }
  if (code === '3D000') {
    return `DATABASE_URL: the database "${database}" does not exist at ${where}: create it (createdb ${database}), or correct its name in DATABASE_URL`;
  }
  if (code === '28P01' || code === '28000') {
    return `DATABASE_URL: PostgreSQL at ${where} refused the user ${user || '(none)'} (${message}): correct the user and password in DATABASE_URL`;
  }
  if (code === 'ETIMEDOUT' || /timeout/i.test(message)) {
    return `DATABASE_URL: ${where} does not answer (${message}): check that PostgreSQL runs there and that this machine can reach it`;
  }
  return `DATABASE_URL: the database ${database} at ${where} cannot be used (${code ? `${code}: ` : ''}${message})`;
}

/** File system refusals of a folder (it cannot be made, read or written), as opposed to a fault of the code. */
const FOLDER_ERRORS = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOENT', 'ENOTDIR', 'EEXIST', 'EISDIR', 'ENOSPC', 'EDQUOT', 'ELOOP', 'ENAMETOOLONG']);

/** One line on an embedded database folder the server cannot use; null for a failure that is not the folder's. */
function dataDirProblem(dataDir: string, error: unknown): string | null {
  if (error instanceof DataDirBusy) {
    return `DATA_DIR ${dataDir} is open in process ${error.pid} (another server, or a backup): stop it, or give this server its own DATA_DIR`;
  }
  const { code, message } = reason(error);
  if (!FOLDER_ERRORS.has(code)) return null;
  return `DATA_DIR ${dataDir} cannot be used (${message}): set DATA_DIR to a folder this user (uid ${process.getuid?.() ?? '?'}) can create and write`;
}

/**
 * The database the configuration names, opened and asked `select 1` once: a database that
 * cannot be reached, does not exist or refuses the user stops the start with a StartupError
 * naming DATABASE_URL, and a folder that cannot hold the embedded one with one naming DATA_DIR,
 * instead of the first migration failing with a driver's stack trace.
 */
export async function openDatabase(
  options: { databaseUrl: string | undefined; dataDir: string } & Pick<DbOptions, 'prepare' | 'readStatementTimeoutMs'>,
): Promise<DbHandle> {
  let handle: DbHandle;
  try {
    handle = await connect(options);
  } catch (error) {
    const problem = options.databaseUrl ? null : dataDirProblem(options.dataDir, error);
    if (problem) throw new StartupError(problem);
    throw error;
  }
  if (!options.databaseUrl) return handle;
  try {
    await sql`select 1`.execute(handle.db);
  } catch (error) {
    await handle.close().catch(() => {});
    if (options.readStatementTimeoutMs && refusesStartupOptions(error)) {
      process.emitWarning(POOLER_WARNING, 'DatabaseWarning');
      return openDatabase({ ...options, readStatementTimeoutMs: 0 });
    }
    throw new StartupError(databaseProblem(options.databaseUrl, error));
  }
  return handle;
}

/**
 * A pooler such as PgBouncer refuses the startup option that carries READ_STATEMENT_TIMEOUT_MS
 * (it keeps its server connections for every client): the server opens its pool without it.
 */
const refusesStartupOptions = (error: unknown) => /unsupported (options )?startup parameter/i.test(reason(error).message);

const POOLER_WARNING =
  'the database (a pooler such as PgBouncer?) refuses the startup option "options": READ_STATEMENT_TIMEOUT_MS is not applied; ' +
  'reads outside a transaction have no time limit (docs/deploy.md, "Load shedding")';
