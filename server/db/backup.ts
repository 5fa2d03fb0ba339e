import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { openPglite, pgliteOptions } from './connect.ts';
import { makePrivate, preparePrivateDir, writePrivateFile } from './privateDir.ts';

/**
 * Backs up the embedded database in `dataDir` into `file` (a gzipped tar of the database's own
 * files, as PGlite writes them after a checkpoint: consistent, restorable as it is), 0600: it
 * holds every balance. Throws DataDirBusy while another process (the server) has the folder open.
 */
export async function backupDataDir(dataDir: string, file: string): Promise<{ bytes: number }> {
  if (!existsSync(dataDir)) throw new Error(`no embedded database at ${dataDir}`);
  const pglite = await openPglite(dataDir);
  try {
    const dump = await pglite.client.dumpDataDir('gzip');
    const bytes = Buffer.from(await dump.arrayBuffer());
    writePrivateFile(file, bytes);
    return { bytes: bytes.length };
  } finally {
    await pglite.close();
  }
}

/**
 * Restores a backup into `dataDir`, which must be missing or empty: a restore never overwrites.
 * The folder is 0700 before PGlite extracts into it, and its files 0600 after (PGlite writes them 0666).
 */
export async function restoreDataDir(file: string, dataDir: string): Promise<void> {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new Error(`${dataDir} is not empty: restore into a new folder, then point DATA_DIR at it`);
  }
  const blob = new Blob([readFileSync(file)], { type: 'application/x-gzip' });
  preparePrivateDir(dataDir);
  const client = await PGlite.create(dataDir, pgliteOptions(blob));
  await client.close();
  makePrivate(dataDir);
}
