import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../contract/paths.ts';
import { fixedClock } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, operatorAndHolder, post } from '../test/signIn.ts';
import { type MovementRow, movementsAfter } from './repository.ts';

/**
 * The export's pages (`movements_after`: postings and income lines read apart) against the
 * holder's `ledger_postings` read whole, on a settled history with postings between its days'
 * lines: every posting once, in order,
 * each page ending on a whole entry, at any page size, the pages of all sizes asked at once.
 */
describe.each(DATABASES)('the export’s pages on %s', (kind) => {
  let t: TestApp;
  let userId: bigint;

  beforeAll(async () => {
    t = await startTestApp(kind, { clock: fixedClock(new Date('2026-11-01T08:00:00Z')), config: { operatorUserIds: [1n] } });
    const { operator, holder } = await operatorAndHolder(t.app);
    // Postings between settled days' income lines, so the two sides interleave.
    for (let day = 0; day < 5; day++) {
      expect((await post(t.app, PATHS.transferIn, holder, { asset: 'AIC', amount: `1.${day + 1}` })).json().code).toBe(0);
      await post(t.app, PATHS.operatorClockAdvance, operator, { days: 1 });
    }
    userId = BigInt((await t.app.inject({ url: PATHS.userInfo, headers: bearer(holder) })).json().data.userId);
  });
  afterAll(() => t?.close());

  const pages = async (size: number) => {
    const found: MovementRow[][] = [];
    for (let after = 0n; found.length < 1000; ) {
      const page = await movementsAfter(t.ctx.db, userId, after, size);
      if (page.length === 0) return found;
      found.push(page);
      after = page.at(-1)?.entry_id ?? after;
    }
    throw new Error('the pages did not end');
  };

  it('gives every posting once, in order, each page whole, at any size', async () => {
    const { rows: whole } = await sql<MovementRow>`
      select p.entry_id, p.asset, p.kind as account, p.amount, e.kind as entry_kind, e.ref, e.created_at,
        sum(p.amount) over (partition by p.entry_id, p.asset)::bigint as entry_net
      from ledger_postings p join journal_entries e on e.id = p.entry_id
      where p.user_id = ${userId}
      order by p.entry_id, p.asset, p.kind`.execute(t.ctx.db);
    expect(new Set(whole.map((r) => r.entry_kind))).toContain('settlement');
    const sizes = [1, 2, 3, 5, 1000];
    const walks = await Promise.all(sizes.map(pages));
    for (const [i, walk] of walks.entries()) {
      expect(walk.flat(), `size ${sizes[i]}`).toEqual(whole);
      for (const [k, page] of walk.entries()) {
        const next = walk[k + 1]?.[0];
        if (next) expect(next.entry_id).toBeGreaterThan(page.at(-1)?.entry_id ?? 0n);
      }
    }
  });
});
