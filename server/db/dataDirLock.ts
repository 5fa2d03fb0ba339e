import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file in an embedded database's folder naming the process that has it open. */
const OWNER = 'aic-earn.pid';

export class DataDirBusy extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`process ${pid} has ${dataDir} open`);
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is somebody else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Marks an embedded database's folder as this process's: PGlite is the files of the process that
 * runs it, so a second process (a second server, a backup) opening them would corrupt or
 * misread them. Refused with DataDirBusy while another living process holds the folder; a mark
 * left by a process that died (kill -9) is taken over.
 */
export function claimDataDir(dataDir: string): () => void {
  const file = join(dataDir, OWNER);
  for (;;) {
    try {
      // 0600 like the database's files (the umask can only narrow it).
      writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) throw new DataDirBusy(dataDir, pid);
      rmSync(file, { force: true });
    }
  }
  return () => {
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
    } catch {
      // Already gone.
    }
  };
}
