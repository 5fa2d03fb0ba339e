import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** `npm run verify` as an operator types it; its exit code and output. */
async function verify(env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'server/settlement/verifyCli.ts'], {
      env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run verify on a database it cannot open', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'aic-verify-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('says in one line that the server holds the data folder, and exits 3, not 1', async () => {
    // The folder's mark names a living process other than the verifier: this test's own.
    writeFileSync(join(dataDir, 'aic-earn.pid'), String(process.pid));
    const busy = await verify({ DATA_DIR: dataDir });
    expect(busy).toMatchObject({ code: 3, stdout: '' });
    expect(busy.stderr).toBe(
      `npm run verify: DATA_DIR ${dataDir} is open in process ${process.pid} (another server, or a backup): stop it, or give this server its own DATA_DIR\n`,
    );
  });

  it('says in one line that the database does not answer, and exits 3', async () => {
    const down = await verify({ DATABASE_URL: 'postgres://root@127.0.0.1:1/test' });
    expect(down.code).toBe(3);
    expect(down.stderr.trim().split('\n')).toHaveLength(1);
    expect(down.stderr).toMatch(/^npm run verify: DATABASE_URL: /);
  });
});
