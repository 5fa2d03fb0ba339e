import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL } from '../test/harness.ts';

const run = promisify(execFile);

/** `npm run settle` as an operator types it, on a database of its own; its exit code and output. */
async function settle(databaseUrl: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'server/settlement/cli.ts', ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, CLOCK_START: '', LOG_LEVEL: 'warn' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run settle', () => {
  const schema = `settle_cli_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  const url = `${TEST_DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create schema ${schema}`);
  });
  afterAll(async () => {
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  it('refuses today, a day ahead and a date that is not one, each in one line, and settles nothing', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const [now, ahead, malformed] = await Promise.all([settle(url, today), settle(url, '2099-03-15'), settle(url, '2026-99-01')]);
    expect(now).toMatchObject({ code: 2, stdout: '' });
    expect(now.stderr).toBe(`settle: ${today} has not ended: today (UTC) is ${today} (DAY_NOT_ENDED, code 155)\n`);
    expect(ahead.stderr).toBe(`settle: 2099-03-15 has not ended: today (UTC) is ${today} (DAY_NOT_ENDED, code 155)\n`);
    expect(ahead.code).toBe(2);
    expect(malformed).toMatchObject({ code: 2, stderr: 'settle: 2026-99-01 is not a calendar day; usage: npm run settle -- [YYYY-MM-DD]\n' });
    const { rows } = await admin.query(`select count(*)::int as n from ${schema}.settlement_days`);
    expect(rows[0].n).toBe(0);
  });
});
