import { chmodSync, closeSync, existsSync, fchmodSync, lstatSync, mkdirSync, openSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Group and others: no bit of theirs on anything of the embedded database. */
const GROUP_OTHER = 0o077;

/** An existing embedded database folder others can reach: the server refuses it (README, "Backups"). */
export class DataDirNotPrivate extends Error {
  constructor(
    readonly dataDir: string,
    readonly mode: number,
  ) {
    const access = mode & 0o044 ? 'readable' : mode & 0o022 ? 'writable' : 'reachable';
    super(
      `DATA_DIR ${dataDir} is ${access} by other users (mode ${(mode & 0o777).toString(8)}): run chmod -R go-rwx ${dataDir}`,
    );
  }
}

/**
 * Makes `dir` ready for a database of this user alone: a new or empty folder is created (or
 * narrowed to) 0700 before anything is written in it, so what PGlite then writes wide cannot be
 * reached; a folder holding something already must be 0700 (DataDirNotPrivate), so an operator
 * whose older version left it open learns of it instead of it being narrowed behind their back.
 */
export function preparePrivateDir(dir: string): void {
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    const mode = statSync(dir).mode;
    if (mode & GROUP_OTHER) throw new DataDirNotPrivate(dir, mode);
    return;
  }
  makeFolders(dir);
  // mkdirSync's mode is masked by the umask and leaves an existing folder as it is.
  chmodSync(dir, 0o700);
}

/**
 * `dir` and its missing parents, one by one: Node's recursive mkdirSync never returns for a folder
 * that cannot be made under /proc (the kernel answers ENOENT, and it tries the parent again).
 */
function makeFolders(dir: string): void {
  const missing: string[] = [];
  for (let folder = resolve(dir); !existsSync(folder); folder = dirname(folder)) {
    missing.unshift(folder);
    if (dirname(folder) === folder) break;
  }
  for (const folder of missing) mkdirSync(folder);
}

/**
 * Narrows `dir` and everything in it to its owner (folders 0700, files 0600): PGlite writes its
 * files 0666 and pg_internal.init 0644 whatever the umask (explicit modes, not masked), so the
 * modes are fixed after it has written them. Symbolic links are left alone, not followed.
 */
export function makePrivate(dir: string): void {
  chmodSync(dir, 0o700);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stats = lstatSync(path);
    if (stats.isDirectory()) makePrivate(path);
    else if (stats.isFile() && stats.mode & GROUP_OTHER) chmodSync(path, 0o600);
  }
}

/** Writes `bytes` into `file`, 0600 whatever the umask, even over an existing file of wider mode. */
export function writePrivateFile(file: string, bytes: Uint8Array): void {
  const fd = openSync(file, 'w', 0o600);
  try {
    // Narrowed before a byte is written: an existing file keeps its mode on open.
    fchmodSync(fd, 0o600);
    writeFileSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}
