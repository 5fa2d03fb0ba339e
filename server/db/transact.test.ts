import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { isRetryableConflict, transact } from './transact.ts';

describe('transactions that lose a race run again', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('postgres', { seed: false });
    await sql`create table race (id int primary key, n int not null)`.execute(t.ctx.db);
    await sql`insert into race values (1, 0), (2, 0)`.execute(t.ctx.db);
  });
  afterAll(() => t?.close());

  it('two transactions locking two rows in opposite order: PostgreSQL kills one, it runs again, both land', async () => {
    let attempts = 0;
    let bothIn: () => void = () => {};
    const met = new Promise<void>((resolve) => {
      let arrived = 0;
      bothIn = () => {
        arrived += 1;
        if (arrived === 2) resolve();
      };
    });
    const cross = (first: number, second: number) =>
      transact(t.ctx.db, async (trx) => {
        attempts += 1;
        await sql`update race set n = n + 1 where id = ${first}`.execute(trx);
        // Both hold their first row before either asks for its second: a certain deadlock, once.
        if (attempts <= 2) {
          bothIn();
          await met;
        }
        await sql`update race set n = n + 1 where id = ${second}`.execute(trx);
      });
    await Promise.all([cross(1, 2), cross(2, 1)]);
    expect(attempts).toBe(3);
    const { rows } = await sql<{ n: number }>`select n from race order by id`.execute(t.ctx.db);
    expect(rows.map((r) => r.n)).toEqual([2, 2]);
  });

  it('other failures are not retried', async () => {
    let attempts = 0;
    await expect(
      transact(t.ctx.db, async (trx) => {
        attempts += 1;
        await sql`select 1/0`.execute(trx);
      }),
    ).rejects.toThrow(/division by zero/);
    expect(attempts).toBe(1);
    expect(isRetryableConflict(Object.assign(new Error('x'), { code: '40001' }))).toBe(true);
    expect(isRetryableConflict(new Error('wrapped', { cause: Object.assign(new Error('y'), { code: '40P01' }) }))).toBe(true);
    expect(isRetryableConflict(Object.assign(new Error('z'), { code: '23505' }))).toBe(false);
  });
});
