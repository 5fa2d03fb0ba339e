import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { fundSystem } from '../test/population.ts';
import { postBatch } from './batch.ts';
import { balanceOf, checkLedger, InsufficientBalance, SYSTEM } from './ledger.ts';

/** Everything the books hold, to compare before and after a refused write. */
async function books(db: Db) {
  const accounts = await db.selectFrom('accounts').selectAll().orderBy('user_id').orderBy('asset').orderBy('kind').execute();
  const entries = await db.selectFrom('journal_entries').select('id').execute();
  const postings = await db.selectFrom('postings').select('entry_id').execute();
  return { accounts, entries: entries.length, postings: postings.length };
}

const aic = (userId: bigint, kind: Parameters<typeof balanceOf>[1]['kind']) => ({ userId, asset: 'AIC' as const, kind });

/** Pays 30 and 12 to user 501 (two lines into earning, one into rewards) and 5 to user 502, from the treasury. */
const payFromTreasury = sql`
  select * from (values (501, 'earning', 20), (501, 'earning', 10), (501, 'rewards', 12), (502, 'earning', 5),
    (503, 'earning', 0)) as v(user_id, kind, amount)
  union all select 0, 'treasury', -47`;

describe.each(DATABASES)("the ledger's batch form on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false });
    await fundSystem(t.ctx.db, { treasury: 100n });
  });
  afterAll(() => t?.close());

  it('posts one balanced entry with a posting per account, creating accounts as needed', async () => {
    const posted = await postBatch(t.ctx.db, { kind: 'test', ref: 'pay', lines: payFromTreasury });
    expect(posted.moved).toBe(47n);
    expect(posted.postings).toBe(4);
    const postings = await t.ctx.db
      .selectFrom('postings')
      .select(['user_id', 'kind', 'amount'])
      .where('entry_id', '=', posted.entry as bigint)
      .orderBy('user_id').orderBy('kind')
      .execute();
    // Lines of one account merged, the zero line dropped, and the entry sums to zero.
    expect(postings).toEqual([
      { user_id: 0n, kind: 'treasury', amount: -47n },
      { user_id: 501n, kind: 'earning', amount: 30n },
      { user_id: 501n, kind: 'rewards', amount: 12n },
      { user_id: 502n, kind: 'earning', amount: 5n },
    ]);
    expect(postings.reduce((sum, p) => sum + p.amount, 0n)).toBe(0n);
    expect(await balanceOf(t.ctx.db, aic(501n, 'earning'))).toBe(30n);
    expect(await balanceOf(t.ctx.db, aic(501n, 'rewards'))).toBe(12n);
    expect(await balanceOf(t.ctx.db, aic(502n, 'earning'))).toBe(5n);
    expect(await balanceOf(t.ctx.db, aic(SYSTEM, 'treasury'))).toBe(53n);
    const created = await t.ctx.db.selectFrom('accounts').select('user_id').where('user_id', '=', 503n).execute();
    expect(created).toEqual([]);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('refuses the whole batch when the paying account is short, and writes nothing, not even the caller\'s rows', async () => {
    const before = await books(t.ctx.db);
    const attempt = postBatch(t.ctx.db, {
      kind: 'test',
      ref: 'too much',
      // The caller's own write in the same statement goes with the refusal.
      with: sql`noted as (insert into params (name, effective_day, value) values ('test.batch', '2026-11-01', 'x') returning 1)`,
      lines: sql`select 501 as user_id, 'earning' as kind, 1000 as amount union all select 0, 'treasury', -1000`,
      report: sql`(select count(*) from noted) as noted`,
    });
    await expect(attempt).rejects.toBeInstanceOf(InsufficientBalance);
    expect(await books(t.ctx.db)).toEqual(before);
    const noted = await t.ctx.db.selectFrom('params').select('name').where('name', '=', 'test.batch').execute();
    expect(noted).toEqual([]);
  });

  it('refuses a debit of an account that does not exist instead of creating it negative', async () => {
    const before = await books(t.ctx.db);
    const attempt = postBatch(t.ctx.db, {
      kind: 'test',
      ref: 'no pool',
      lines: sql`select 501 as user_id, 'earning' as kind, 1 as amount union all select 0, 'supercomputing_pool', -1`,
    });
    await expect(attempt).rejects.toBeInstanceOf(InsufficientBalance);
    expect(await books(t.ctx.db)).toEqual(before);
  });

  it('writes nothing of the books for lines that do not sum to zero', async () => {
    const before = await books(t.ctx.db);
    const attempt = postBatch(t.ctx.db, {
      kind: 'test',
      ref: 'unbalanced',
      lines: sql`select 501 as user_id, 'earning' as kind, 2 as amount union all select 0, 'treasury', -1`,
    });
    await expect(attempt).rejects.toThrow(/does not balance/);
    expect(await books(t.ctx.db)).toEqual(before);
  });

  it('writes no entry when there is nothing to move', async () => {
    const before = await books(t.ctx.db);
    const posted = await postBatch<{ n: bigint }>(t.ctx.db, {
      kind: 'test',
      ref: 'nothing',
      lines: sql`select 501 as user_id, 'earning' as kind, 0 as amount where false`,
      report: sql`42::bigint as n`,
    });
    expect(posted).toEqual({ entry: null, postings: 0, moved: 0n, n: 42n });
    expect(await books(t.ctx.db)).toEqual(before);
  });

  /** Income lines naming the entry (batch_id), as settlement records them: two into 505's earning, one into its rewards, one of zero. */
  const recordedLines = sql`lines as (
    insert into income (user_id, order_id, day, kind, amount, entry_id, account)
    select user_id, order_id, '2026-11-02', 'fixed', amount, case when amount > 0 then (select id from batch_id) end, account
    from (values (505, 1, 8, 'earning'), (505, 2, 4, 'earning'), (505, 3, 3, 'rewards'), (506, 4, 0, 'earning'))
      as v(user_id, order_id, amount, account)
    returning user_id, account, amount)`;

  it('takes the lines a caller records as its own rows as the entry’s postings, read through ledger_postings', async () => {
    const posted = await postBatch(t.ctx.db, {
      kind: 'test',
      ref: 'recorded',
      with: recordedLines,
      recorded: sql`select user_id, account as kind, amount from lines where amount > 0`,
      lines: sql`select 0 as user_id, 'treasury' as kind, -(select sum(amount) from lines) as amount`,
    });
    const entry = posted.entry as bigint;
    expect(posted).toMatchObject({ moved: 15n, postings: 1 });
    const of = (view: 'postings' | 'ledger_postings') =>
      t.ctx.db.selectFrom(view).select(['user_id', 'kind', 'amount']).where('entry_id', '=', entry).orderBy('user_id').orderBy('kind').execute();
    expect(await of('postings')).toEqual([{ user_id: 0n, kind: 'treasury', amount: -15n }]);
    // One posting per account: the lines of an account summed, the zero line no posting.
    expect(await of('ledger_postings')).toEqual([
      { user_id: 0n, kind: 'treasury', amount: -15n },
      { user_id: 505n, kind: 'earning', amount: 12n },
      { user_id: 505n, kind: 'rewards', amount: 3n },
    ]);
    // Every amount moved, unmerged: the three lines that paid something and the treasury's posting.
    const lines = await t.ctx.db.selectFrom('ledger_lines').select('amount').where('entry_id', '=', entry).orderBy('amount').execute();
    expect(lines.map((l) => l.amount)).toEqual([-15n, 3n, 4n, 8n]);
    expect(await balanceOf(t.ctx.db, aic(505n, 'earning'))).toBe(12n);
    expect(await balanceOf(t.ctx.db, aic(505n, 'rewards'))).toBe(3n);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('refuses an account with lines both posted and recorded, and writes nothing of the books', async () => {
    const before = await books(t.ctx.db);
    const attempt = postBatch(t.ctx.db, {
      kind: 'test',
      ref: 'mixed',
      recorded: sql`select 507 as user_id, 'earning' as kind, 2 as amount`,
      lines: sql`select 507 as user_id, 'earning' as kind, 1 as amount union all select 0, 'treasury', -3`,
    });
    await expect(attempt).rejects.toThrow(/both posted and recorded/);
    expect(await books(t.ctx.db)).toEqual(before);
  });

  it('lets only the exchange counterpart go negative, as postEntry does', async () => {
    await postBatch(t.ctx.db, {
      kind: 'test',
      ref: 'from outside',
      lines: sql`select 504 as user_id, 'wallet' as kind, 7 as amount union all select 0, 'exchange', -7`,
    });
    const exchange = await t.ctx.db
      .selectFrom('accounts')
      .select(['balance', 'allow_negative'])
      .where('user_id', '=', SYSTEM)
      .where('kind', '=', 'exchange')
      .executeTakeFirstOrThrow();
    expect(exchange).toEqual({ balance: -107n, allow_negative: true });
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });
});

describe.each(DATABASES)('the SQL function ledger_move on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false });
    await postBatch(t.ctx.db, {
      kind: 'fund',
      ref: 'wallet',
      lines: sql`select 601 as user_id, 'wallet' as kind, 50 as amount union all select 0, 'exchange', -50`,
    });
  });
  afterAll(() => t?.close());

  const move = (from: string, to: string, amount: number) =>
    sql<{ entry: bigint }>`select ledger_move('test', 'move', null, 'AIC', 601, ${from}, 601, ${to}, ${amount}) as entry`.execute(
      t.ctx.db,
    );

  it('moves between two accounts in one entry, creating the receiving one', async () => {
    const { rows } = await move('wallet', 'earning', 20);
    const postings = await t.ctx.db
      .selectFrom('postings')
      .select(['kind', 'amount'])
      .where('entry_id', '=', rows[0]?.entry as bigint)
      .orderBy('kind')
      .execute();
    expect(postings).toEqual([
      { kind: 'earning', amount: 20n },
      { kind: 'wallet', amount: -20n },
    ]);
    expect(await balanceOf(t.ctx.db, aic(601n, 'wallet'))).toBe(30n);
    expect(await balanceOf(t.ctx.db, aic(601n, 'earning'))).toBe(20n);
  });

  it('refuses an overdraft and a debit of a missing account with check_violation, writing nothing', async () => {
    const before = await books(t.ctx.db);
    await expect(move('wallet', 'earning', 31)).rejects.toMatchObject({ code: '23514' });
    await expect(move('rewards', 'wallet', 1)).rejects.toMatchObject({ code: '23514' });
    expect(await books(t.ctx.db)).toEqual(before);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('takes a bad call for a bug, not a refusal', async () => {
    await expect(move('wallet', 'wallet', 1)).rejects.toMatchObject({ code: '22023' });
    await expect(move('wallet', 'earning', 0)).rejects.toMatchObject({ code: '22023' });
  });
});
