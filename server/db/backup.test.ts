import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLedger } from '../ledger/ledger.ts';
import { seedDemoData } from '../platform/seed.ts';
import { moveIntoWallet } from '../test/population.ts';
import { backupDataDir, LOCK_FILES, restoreDataDir } from './backup.ts';
import { connect, type Db, openPglite } from './connect.ts';
import { DataDirBusy } from './dataDirLock.ts';
import { migrateToLatest } from './migrate.ts';

/** Every account's balance, as text, keyed by user, asset and kind. */
async function balances(db: Db): Promise<Record<string, string>> {
  const rows = await db.selectFrom('accounts').select(['user_id', 'asset', 'kind', 'balance']).execute();
  return Object.fromEntries(rows.map((r) => [`${r.user_id}/${r.asset}/${r.kind}`, String(r.balance)]));
}

describe('backup and restore of the embedded database', () => {
  it('restores the balances of the backup moment, with the ledger check green', async () => {
    const root = mkdtempSync(join(tmpdir(), 'aic-backup-'));
    const live = join(root, 'data');
    const file = join(root, 'backup.tar.gz');

    let handle = await connect({ dataDir: live });
    await migrateToLatest(handle.db);
    await seedDemoData(handle.db);
    await moveIntoWallet(handle.db, 5_00000000n);
    const atBackup = await balances(handle.db);
    await handle.close();

    const { bytes } = await backupDataDir(live, file);
    expect(bytes).toBeGreaterThan(0);

    // Money keeps moving after the backup.
    handle = await connect({ dataDir: live });
    await moveIntoWallet(handle.db, 7_00000000n);
    const after = await balances(handle.db);
    await handle.close();
    expect(after).not.toEqual(atBackup);

    const restored = join(root, 'restored');
    await restoreDataDir(file, restored);
    handle = await connect({ dataDir: restored });
    try {
      expect(await balances(handle.db)).toEqual(atBackup);
      expect((await checkLedger(handle.db)).ok).toBe(true);
    } finally {
      await handle.close();
    }
    // A restore never overwrites a folder that holds something.
    await expect(restoreDataDir(file, live)).rejects.toThrow(/not empty/);
  });

  it('refuses to back up a folder another living process has open', async () => {
    const root = mkdtempSync(join(tmpdir(), 'aic-backup-'));
    const live = join(root, 'data');
    const handle = await connect({ dataDir: live });
    await migrateToLatest(handle.db);
    await handle.close();
    // The mark the server leaves while it runs; the parent process stands in for it (alive).
    writeFileSync(join(live, 'aic-earn.pid'), String(process.ppid));
    await expect(backupDataDir(live, join(root, 'b.tar.gz'))).rejects.toBeInstanceOf(DataDirBusy);
    await expect(connect({ dataDir: live })).rejects.toBeInstanceOf(DataDirBusy);
  });

  it('writes member names relative to the folder, without lock files, 0600 in a new 0700 folder', async () => {
    const root = mkdtempSync(join(tmpdir(), 'aic-backup-'));
    const live = join(root, 'data');
    const handle = await connect({ dataDir: live });
    await migrateToLatest(handle.db);
    await handle.close();

    // Under the common umask, into folders that do not exist yet.
    const umask = process.umask(0o022);
    const file = join(root, 'backups', 'nightly', 'b.tar.gz');
    try {
      await backupDataDir(live, file);
    } finally {
      process.umask(umask);
    }
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, 'backups')).mode & 0o777).toBe(0o700);
    expect(statSync(join(root, 'backups', 'nightly')).mode & 0o777).toBe(0o700);

    // As an operator's tar reads it: no warning (GNU tar warns of a leading "/" and strips it).
    const list = spawnSync('tar', ['-tzf', file], { encoding: 'utf8' });
    expect(list.status).toBe(0);
    expect(list.stderr).toBe('');
    const names = list.stdout.split('\n').filter(Boolean);
    expect(names).toContain('PG_VERSION');
    expect(names).toContain('global/pg_control');
    expect(names.filter((name) => name.startsWith('/') || name.split('/').includes('..'))).toEqual([]);
    expect(names.filter((name) => LOCK_FILES.has(name))).toEqual([]);
    // Extracted anywhere, it is a data folder, not a tree rooted at "/".
    const extracted = join(root, 'extracted');
    mkdirSync(extracted);
    expect(spawnSync('tar', ['-xzf', file, '-C', extracted]).status).toBe(0);
    expect(readdirSync(extracted)).toContain('PG_VERSION');
  });

  it('restores a backup of the older kind (absolute names, lock files) without its lock files', async () => {
    const root = mkdtempSync(join(tmpdir(), 'aic-backup-'));
    const live = join(root, 'data');
    const handle = await connect({ dataDir: live });
    await migrateToLatest(handle.db);
    await seedDemoData(handle.db);
    const atBackup = await balances(handle.db);
    await handle.close();
    // What backupDataDir wrote before: PGlite's own dump, taken with the folder open and marked.
    const pglite = await openPglite(live);
    const file = join(root, 'old.tar.gz');
    try {
      writeFileSync(file, Buffer.from(await (await pglite.client.dumpDataDir('gzip')).arrayBuffer()));
    } finally {
      await pglite.close();
    }
    const names = spawnSync('tar', ['-tzf', file], { encoding: 'utf8' }).stdout.split('\n');
    expect(names).toContain('/aic-earn.pid');

    const restored = join(root, 'restored');
    await restoreDataDir(file, restored);
    for (const lock of LOCK_FILES) expect(existsSync(join(restored, lock)), lock).toBe(false);
    const again = await connect({ dataDir: restored });
    try {
      expect(await balances(again.db)).toEqual(atBackup);
    } finally {
      await again.close();
    }
  });
});
