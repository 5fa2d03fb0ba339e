import { spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDemoData } from '../platform/seed.ts';
import { moveIntoWallet } from '../test/population.ts';
import { backupDataDir, restoreDataDir } from './backup.ts';
import { connect } from './connect.ts';
import { migrateToLatest } from './migrate.ts';
import { DataDirNotPrivate } from './privateDir.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

/** `dir` and everything in it that group or others could use, with its mode (empty: all private). */
function openToOthers(dir: string): string[] {
  const own = statSync(dir).mode & 0o777;
  const found = own === 0o700 ? [] : [`${dir} ${own.toString(8)}`];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stats = lstatSync(path);
    if (stats.isDirectory()) found.push(...openToOthers(path));
    else if (stats.mode & 0o077) found.push(`${path} ${(stats.mode & 0o777).toString(8)}`);
  }
  return found;
}

/** A data folder with the app's tables, demo data and a move, closed again. */
async function filledDataDir(dir: string): Promise<void> {
  const handle = await connect({ dataDir: dir });
  try {
    await migrateToLatest(handle.db);
    await seedDemoData(handle.db);
    await moveIntoWallet(handle.db, 3_00000000n);
    // Files PGlite makes after opening (tables, rows, WAL) are private too.
    expect(openToOthers(dir)).toEqual([]);
  } finally {
    await handle.close();
  }
}

describe('the embedded database is its owner\'s alone, whatever the umask', () => {
  let umask = 0;
  // The common default, under which PGlite's files came out 0666 and backups 0644.
  beforeEach(() => {
    umask = process.umask(0o022);
  });
  afterEach(() => {
    process.umask(umask);
  });

  it('keeps the data folder 0700 and its files 0600 after migrations and writes, and after reopening', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'aic-private-')), 'data');
    await filledDataDir(dir);
    expect(openToOthers(dir)).toEqual([]);
    const handle = await connect({ dataDir: dir });
    try {
      await moveIntoWallet(handle.db, 1_00000000n);
      expect(openToOthers(dir)).toEqual([]);
    } finally {
      await handle.close();
    }
    expect(openToOthers(dir)).toEqual([]);
  });

  it('narrows files left wide inside a private folder, and refuses a folder open to others', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'aic-private-')), 'data');
    await filledDataDir(dir);
    chmodSync(join(dir, 'PG_VERSION'), 0o666);
    const handle = await connect({ dataDir: dir });
    await handle.close();
    expect(openToOthers(dir)).toEqual([]);

    chmodSync(dir, 0o755);
    const refused = connect({ dataDir: dir });
    await expect(refused).rejects.toBeInstanceOf(DataDirNotPrivate);
    await expect(refused).rejects.toThrow(`DATA_DIR ${dir} is readable by other users (mode 755): run chmod -R go-rwx ${dir}`);
    // Refused before anything was written or claimed: no mark of this process is left behind.
    expect(readdirSync(dir)).not.toContain('aic-earn.pid');
  });

  it('writes the backup 0600, even over a wider file, and restores into a 0700 folder of 0600 files', async () => {
    const root = mkdtempSync(join(tmpdir(), 'aic-private-'));
    const dir = join(root, 'data');
    await filledDataDir(dir);
    const file = join(root, 'backup.tar.gz');
    writeFileSync(file, 'an older backup');
    chmodSync(file, 0o644);
    await backupDataDir(dir, file);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const restored = join(root, 'restored');
    await restoreDataDir(file, restored);
    expect(openToOthers(restored)).toEqual([]);
    expect(statSync(restored).mode & 0o777).toBe(0o700);
  });

  it('stops the server on a data folder open to others, in one line with the fix', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'aic-private-')), 'data');
    await filledDataDir(dir);
    chmodSync(dir, 0o755);
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.split('\n').filter((line) => line.trim() && !/oidc-provider WARNING|ExperimentalWarning|--trace-warnings/.test(line));
    expect(lines).toEqual([`configuration: DATA_DIR ${dir} is readable by other users (mode 755): run chmod -R go-rwx ${dir}`]);
  }, 90_000);
});
