import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLedger } from '../ledger/ledger.ts';
import { seedDemoData } from '../platform/seed.ts';
import { moveIntoWallet } from '../test/population.ts';
import { backupDataDir, restoreDataDir } from './backup.ts';
import { connect, type Db } from './connect.ts';
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
});
