import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../contract/paths.ts';
import { fixedClock } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, operatorAndHolder, post, signIn } from '../test/signIn.ts';
import { type UserLogRow, userLogItem } from './logs.ts';

type Item = { id: string; kind: string; asset: string; account: string; amount: string; ref: string | null; createdAt: string };

/**
 * The user log walked page by page (`user_log`, newest `limit` of each account's newest) against
 * the page it replaced: the holder's whole `ledger_postings` grouped, joined to the entries and
 * sorted, read straight from the tables.
 */
describe.each(DATABASES)('the user log on %s', (kind) => {
  let t: TestApp;
  let holder: string;

  beforeAll(async () => {
    t = await startTestApp(kind, { clock: fixedClock(new Date('2026-11-01T08:00:00Z')), config: { operatorUserIds: [1n] } });
    const signedIn = await operatorAndHolder(t.app);
    holder = signedIn.holder;
    await post(t.app, PATHS.operatorClockAdvance, signedIn.operator, { days: 5 });
  });
  afterAll(() => t?.close());

  const userIdOf = async (token: string) => BigInt((await t.app.inject({ url: PATHS.userInfo, headers: bearer(token) })).json().data.userId);

  /** Every page of `limit`, the pages of all the walks asked for at once (so they are gathered). */
  const walk = async (token: string, limit: number) => {
    const items: Item[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 500; page++) {
      const res = await t.app.inject({ url: PATHS.userLog, query: { limit: String(limit), ...(cursor ? { cursor } : {}) }, headers: bearer(token) });
      const data = res.json().data as { items: Item[]; nextCursor: string | null };
      items.push(...data.items);
      cursor = data.nextCursor;
      if (!cursor) return items;
    }
    throw new Error('the walk did not end');
  };

  const fromTables = async (userId: bigint): Promise<Item[]> => {
    const { rows } = await sql<UserLogRow>`
      select e.id, e.kind, e.ref, e.created_at, p.asset, p.kind as account, p.amount
      from ledger_postings p join journal_entries e on e.id = p.entry_id
      where p.user_id = ${userId}
      order by e.id desc, p.kind desc`.execute(t.ctx.db);
    return rows.map(userLogItem);
  };

  it('gives every posting of a settled history once, newest first, at any page size', async () => {
    const all = await fromTables(await userIdOf(holder));
    expect(new Set(all.map((i) => i.kind))).toContain('settlement');
    const walks = await Promise.all([1, 2, 3, 7, 100].map((limit) => walk(holder, limit)));
    for (const items of walks) expect(items).toEqual(all);
  });

  it('reads from the newest posting when the cursor is not one', async () => {
    const first = await walk(holder, 100);
    for (const cursor of ['not-a-cursor', '99999999999999999999|wallet', '5|Wallet', '5|wallet\u0000']) {
      const res = await t.app.inject({ url: PATHS.userLog, query: { limit: '3', cursor }, headers: bearer(holder) });
      expect(res.json().data.items, cursor).toEqual(first.slice(0, 3));
    }
  });

  const ACCOUNTS = [
    ['AIC', 'wallet'],
    ['AIC', 'earning'],
    ['AIC', 'rewards'],
    ['USDT', 'wallet'],
    ['USDT', 'withdrawals_pending'],
  ] as const;
  /** Entries of one to three postings on distinct accounts of the holder (no kind twice in an entry). */
  const history = fc.array(
    fc.uniqueArray(fc.record({ account: fc.integer({ min: 0, max: ACCOUNTS.length - 1 }), amount: fc.integer({ min: -500, max: 500 }).filter((a) => a !== 0) }), {
      minLength: 1,
      maxLength: 3,
      selector: (p) => ACCOUNTS[p.account]?.[1],
    }),
    { minLength: 0, maxLength: 40 },
  );

  it('walks any history as the grouped read does, at any page size', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(history, fc.integer({ min: 1, max: 6 }), async (entries, limit) => {
        const session = await signIn(t.app, { name: `log-${++n}` });
        const userId = BigInt(session.userId);
        await t.ctx.db.transaction().execute(async (trx) => {
          for (const [asset, account] of ACCOUNTS) {
            await sql`insert into accounts (user_id, asset, kind, balance) values (${userId}, ${asset}, ${account}, 0) on conflict do nothing`.execute(trx);
          }
          for (const [i, postings] of entries.entries()) {
            const { rows } = await sql<{ id: bigint }>`
              insert into journal_entries (kind, ref, created_at) values ('adjustment', ${`log:${i}`}, now()) returning id`.execute(trx);
            for (const p of postings) {
              const [asset, account] = ACCOUNTS[p.account] as (typeof ACCOUNTS)[number];
              await sql`insert into postings (entry_id, user_id, asset, kind, amount)
                values (${rows[0]?.id}, ${userId}, ${asset}, ${account}, ${BigInt(p.amount)})`.execute(trx);
            }
          }
        });
        expect(await walk(session.token, limit)).toEqual(await fromTables(userId));
      }),
      { numRuns: 25 },
    );
  });
});
