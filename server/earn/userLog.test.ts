import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import type { AccountKind } from '../db/schema.ts';
import { postEntry, SYSTEM } from '../ledger/ledger.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { userLogPage } from './logs.ts';

const ACCOUNTS = ['wallet', 'earning', 'rewards'] as const;

/** The page as the route read it before: every posting of the holder, joined, sorted, cut. */
async function pageReadWhole(db: Db, userId: bigint, limit: number, cursor?: { entryId: bigint; account: string }) {
  const after = cursor ? sql`and (e.id, p.kind) < (${cursor.entryId}, ${cursor.account})` : sql``;
  const { rows } = await sql`
    select e.id, e.kind, e.ref, e.created_at, p.asset, p.kind as account, p.amount
    from ledger_postings p join journal_entries e on e.id = p.entry_id
    where p.user_id = ${userId} ${after}
    order by e.id desc, p.kind desc
    limit ${limit + 1}`.execute(db);
  return rows;
}

describe.each(DATABASES)('the user log on %s', (kind) => {
  let t: TestApp;
  let nextId = 7_000n;
  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false });
  });
  afterAll(() => t?.close());

  it('gives every page the whole history read and sorted gives, from each account’s newest postings', async () => {
    // An entry: money from outside into one account, or a move between two of the holder's.
    const move = fc.record({
      asset: fc.constantFrom('AIC' as const, 'USDT' as const),
      from: fc.constantFrom(null, ...ACCOUNTS),
      to: fc.constantFrom(...ACCOUNTS),
      amount: fc.bigInt({ min: 1n, max: 10n ** 12n }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(move, { maxLength: 40 }), fc.integer({ min: 1, max: 7 }), async (moves, limit) => {
        const id = nextId++;
        await sql`insert into users (id, subject, name, invite_code) values (${id}, ${`l-${id}`}, 'l', ${`L${id}`})`.execute(t.ctx.db);
        for (const m of moves) {
          const from: { userId: bigint; kind: AccountKind } = m.from === null || m.from === m.to ? { userId: SYSTEM, kind: 'exchange' } : { userId: id, kind: m.from };
          await t.ctx.db.transaction().execute(async (trx) => {
            // A move out of the holder's own account needs the money there first.
            if (from.userId === id) {
              await postEntry(trx, { kind: 'recharge', postings: [{ userId: SYSTEM, asset: m.asset, kind: 'exchange', amount: -m.amount }, { userId: id, asset: m.asset, kind: from.kind, amount: m.amount }] });
            }
            await postEntry(trx, { kind: 'transfer', postings: [{ ...from, asset: m.asset, amount: -m.amount }, { userId: id, asset: m.asset, kind: m.to, amount: m.amount }] });
          });
        }
        // Walk every page both ways, each from the cursor the page before ends on.
        let cursor: { entryId: bigint; account: string } | undefined;
        for (let pages = 0; pages < 200; pages++) {
          const { rows } = await userLogPage(t.ctx.db, id, limit, cursor);
          expect(rows).toEqual(await pageReadWhole(t.ctx.db, id, limit, cursor));
          const last = rows.slice(0, limit).at(-1);
          if (rows.length <= limit || !last) return;
          cursor = { entryId: last.id, account: last.account };
        }
        throw new Error('more pages than postings');
      }),
      { numRuns: 25 },
    );
  });
});
