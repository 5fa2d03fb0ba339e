import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postEntry, SYSTEM } from '../ledger/ledger.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { holdingsOf, noWalletBalances } from '../earn/positions.ts';

const KINDS = ['wallet', 'withdrawals_pending', 'earning', 'rewards', 'network_rewards'] as const;

/** What the holder was given of an asset in an account kind. */
const sum = (holdings: { asset: string; kind: string; amount: bigint }[], asset: string, kind: string) =>
  holdings.filter((h) => h.asset === asset && h.kind === kind).reduce((total, h) => total + h.amount, 0n);

describe.each(DATABASES)('holdings read together on %s', (kind) => {
  let t: TestApp;
  let nextId = 5_000n;
  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false });
  });
  afterAll(() => t?.close());

  it('give every holder what reading them alone gives, whatever else is read in the same moment', async () => {
    const holding = fc.record({ asset: fc.constantFrom('AIC' as const, 'USDT' as const), kind: fc.constantFrom(...KINDS), amount: fc.bigInt({ min: 1n, max: 10n ** 14n }) });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(holding, { maxLength: 5 }), { minLength: 1, maxLength: 8 }), fc.nat(3), async (holders, repeats) => {
        const ids: bigint[] = [];
        for (const holdings of holders) {
          const id = nextId++;
          ids.push(id);
          await sql`insert into users (id, subject, name, invite_code) values (${id}, ${`b-${id}`}, 'b', ${`G${id}`})`.execute(t.ctx.db);
          for (const h of holdings) {
            await t.ctx.db.transaction().execute((trx) =>
              postEntry(trx, { kind: 'recharge', postings: [{ userId: SYSTEM, asset: h.asset, kind: 'exchange', amount: -h.amount }, { userId: id, asset: h.asset, kind: h.kind, amount: h.amount }] }),
            );
          }
        }
        // Each holder asked for 1 + repeats times in the same moment, with one who holds nothing.
        const asked = [...ids.flatMap((id) => Array.from({ length: 1 + repeats }, () => id)), nextId + 1_000_000n];
        const together = await Promise.all(asked.map((id) => holdingsOf(t.ctx.db, id)));
        for (const [i, id] of asked.entries()) {
          const alone = await holdingsOf(t.ctx.db, id);
          expect(together[i]).toEqual(alone);
          // The wallet and pending figures read straight from the holder's accounts.
          const accounts = await t.ctx.db.selectFrom('accounts').select(['asset', 'kind', 'balance']).where('user_id', '=', id).where('kind', 'in', ['wallet', 'withdrawals_pending']).execute();
          const wallet = noWalletBalances();
          for (const a of accounts) wallet[a.asset][a.kind === 'wallet' ? 'available' : 'pending'] = a.balance;
          expect(alone.wallet).toEqual(wallet);
          const balance = (kind: string) => sum(holders[ids.indexOf(id)] ?? [], 'AIC', kind);
          expect(alone.claimable).toEqual({ rewards: balance('rewards'), network: balance('network_rewards'), fixed: 0n });
        }
      }),
      { numRuns: 30 },
    );
  });
});
