/**
 * The embedded database's backup and restore (PostgreSQL: pgBackRest, docs/deploy.md section 9):
 *   npm run backup [file]            DATA_DIR (./data) into file (aic-earn-<time>.tar.gz)
 *   npm run restore file [folder]    into folder (DATA_DIR), which must be missing or empty
 */
import { loadConfig } from '../config.ts';
import { backupDataDir, restoreDataDir } from './backup.ts';
import { DataDirBusy } from './dataDirLock.ts';

const [command, ...args] = process.argv.slice(2);
const config = loadConfig();

async function run(): Promise<void> {
  if (config.databaseUrl) {
    throw new Error('DATABASE_URL is set: back up PostgreSQL with pgBackRest (docs/deploy.md, section 9)');
  }
  if (command === 'backup') {
    const file = args[0] ?? `aic-earn-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`;
    const { bytes } = await backupDataDir(config.dataDir, file);
    console.log(`backed up ${config.dataDir} into ${file} (${bytes} bytes)`);
  } else if (command === 'restore' && args[0]) {
    const into = args[1] ?? config.dataDir;
    await restoreDataDir(args[0], into);
    console.log(`restored ${args[0]} into ${into}; start the server with DATA_DIR=${into}`);
  } else {
    throw new Error('usage: npm run backup [file] | npm run restore file [folder]');
  }
}

run().catch((error: unknown) => {
  if (error instanceof DataDirBusy) {
    console.error(
      `The server (process ${error.pid}) has ${error.dataDir} open. Stop it first, then back up: the embedded ` +
        'database is the files of the one process that runs it, and a copy taken while it writes would not be consistent.',
    );
  } else {
    console.error(error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
