import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { openPglite, pgliteOptions } from './connect.ts';
import { makePrivate, preparePrivateDir, writePrivateFile } from './privateDir.ts';

const BLOCK = 512;
/**
 * Marks of the process that had the folder open: PostgreSQL's (PGlite writes postmaster.pid)
 * and the server's (aic-earn.pid, dataDirLock.ts). A restored folder is nobody's yet, and a
 * mark naming a process alive on the restoring machine would refuse the server there.
 */
export const LOCK_FILES: ReadonlySet<string> = new Set(['postmaster.pid', 'aic-earn.pid']);

const text = (bytes: Uint8Array) => {
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(end < 0 ? bytes : bytes.subarray(0, end));
};

/**
 * PGlite's tar of its data folder made portable: member names relative to the folder
 * (`base/1/112`; PGlite writes `/base/1/112`, which a plain `tar x` would put at the root of the
 * file system) and without the lock files. Reads and writes POSIX ustar, the format PGlite
 * writes; anything else is refused rather than copied half understood.
 */
function portableTar(tar: Uint8Array): Buffer<ArrayBuffer> {
  const out: Uint8Array[] = [];
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const size = Number.parseInt(text(header.subarray(124, 136)).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    if (!['0', '\0', '5'].includes(type)) throw new Error(`backup: unexpected tar member type "${type}" in PGlite's dump`);
    const ustar = text(header.subarray(257, 263)).startsWith('ustar');
    const prefix = ustar ? text(header.subarray(345, 500)) : '';
    const name = text(header.subarray(0, 100));
    const path = (prefix ? `${prefix}/${name}` : name).replace(/^\/+/, '').replace(/\/+$/, '');
    const data = tar.subarray(offset + BLOCK, offset + BLOCK + Math.ceil(size / BLOCK) * BLOCK);
    offset += BLOCK + data.length;
    if (!path || LOCK_FILES.has(path)) continue;
    const encoded = new TextEncoder().encode(path);
    if (encoded.length > 100) throw new Error(`backup: member name longer than a tar header holds: ${path}`);
    const copy = Uint8Array.from(header);
    copy.fill(0, 0, 100);
    copy.set(encoded, 0);
    if (ustar) copy.fill(0, 345, 500);
    copy.fill(0x20, 148, 156);
    const sum = copy.reduce((total, byte) => total + byte, 0);
    copy.set(new TextEncoder().encode(`${sum.toString(8).padStart(6, '0')}\0 `), 148);
    out.push(copy, data);
  }
  out.push(new Uint8Array(2 * BLOCK));
  return Buffer.concat(out);
}

/**
 * Creates the folders missing on the way to `file`, each 0700 whatever the umask: the backup
 * holds every balance. Folders that exist are left as they are (the file itself is 0600).
 */
function privateParents(file: string): void {
  const missing: string[] = [];
  for (let dir = dirname(resolve(file)); !existsSync(dir) && dirname(dir) !== dir; dir = dirname(dir)) missing.unshift(dir);
  for (const dir of missing) {
    mkdirSync(dir, { mode: 0o700 });
    // mkdirSync's mode is masked by the umask.
    chmodSync(dir, 0o700);
  }
}

/**
 * Backs up the embedded database in `dataDir` into `file` (a gzipped tar of the database's own
 * files, as PGlite writes them after a checkpoint: consistent, restorable as it is; relative
 * names, no lock files: portableTar), 0600 in a folder made 0700 if it was missing: it holds
 * every balance. Throws DataDirBusy while another process (the server) has the folder open.
 */
export async function backupDataDir(dataDir: string, file: string): Promise<{ bytes: number }> {
  if (!existsSync(dataDir)) throw new Error(`no embedded database at ${dataDir}`);
  const pglite = await openPglite(dataDir);
  try {
    const dump = await pglite.client.dumpDataDir('none');
    const bytes = gzipSync(portableTar(new Uint8Array(await dump.arrayBuffer())));
    privateParents(file);
    writePrivateFile(file, bytes);
    return { bytes: bytes.length };
  } finally {
    await pglite.close();
  }
}

/**
 * Restores a backup into `dataDir`, which must be missing or empty: a restore never overwrites.
 * The folder is 0700 before PGlite extracts into it, and its files 0600 after (PGlite writes them 0666).
 * A backup of an older version (absolute names, lock files) is made portable first, so no
 * lock file of the process that made it is restored.
 */
export async function restoreDataDir(file: string, dataDir: string): Promise<void> {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new Error(`${dataDir} is not empty: restore into a new folder, then point DATA_DIR at it`);
  }
  const archive = readFileSync(file);
  const tar = archive[0] === 0x1f && archive[1] === 0x8b ? gunzipSync(archive) : archive;
  const blob = new Blob([portableTar(tar)], { type: 'application/x-tar' });
  preparePrivateDir(dataDir);
  const client = await PGlite.create(dataDir, pgliteOptions(blob));
  await client.close();
  makePrivate(dataDir);
}
