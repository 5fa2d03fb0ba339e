import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNED_KINDS } from '../../contract/owned.ts';
import { formatUnits } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { ASSETS, type Asset } from '../../contract/wallet.ts';
import { fixedClock } from '../platform/clock.ts';
import { settleDue } from '../settlement/settle.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, post, signIn } from '../test/signIn.ts';

/**
 * Issue 61, "One truth about what a holder owns": per asset, the Wallet's total, the monthly
 * statement's closing balance and the holder's leaf in the day's proof are one figure, the sum of
 * the holder's ledger accounts, for holders with USDT beside AIC, orders of every product, locked
 * network income and a withdrawal under review.
 */
describe.each(DATABASES)('what a holder owns on %s', (kind) => {
  let t: TestApp;
  const holders: { name: string; token: string; id: bigint }[] = [];

  beforeAll(async () => {
    t = await startTestApp(kind, { clock: fixedClock(new Date('2026-11-01T08:00:00Z')), config: { sessionTtlDays: 1000 } });
    // A chain: Ada invites Olga, who invites Hana.
    for (const name of ['Ada', 'Olga', 'Hana']) {
      const session = await signIn(t.app, { name });
      const inviter = holders.at(-1);
      if (inviter) {
        const { inviteCode } = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(inviter.token) })).json().data;
        expect((await post(t.app, PATHS.bindInviter, session.token, { inviteCode })).json().code).toBe(0);
      }
      holders.push({ name, token: session.token, id: BigInt(session.userId) });
    }
    const [, olga, hana] = holders as [(typeof holders)[0], (typeof holders)[0], (typeof holders)[0]];
    const ok = async (token: string, path: string, body: object) => expect((await post(t.app, path, token, body)).json().code).toBe(0);
    await ok(olga.token, PATHS.transferIn, { asset: 'AIC', amount: '5000' });
    await ok(olga.token, PATHS.productBuy, { product: 'reinvest360', amount: '3000' });
    await ok(hana.token, PATHS.transferIn, { asset: 'AIC', amount: '10000' });
    await ok(hana.token, PATHS.recharge, { asset: 'USDT', amount: '500' });
    for (const [product, amount] of [
      ['current', '1000'],
      ['fixed30', '2000'],
      ['reinvest360', '3000'],
    ] as const) {
      await ok(hana.token, PATHS.productBuy, { product, amount });
    }
    await ok(hana.token, PATHS.withdraw, { asset: 'AIC', amount: '100' });
    await ok(hana.token, PATHS.withdraw, { asset: 'USDT', amount: '20' });
    // Days settle: income, rebates locked up for Olga; the proof of the last day is built.
    t.ctx.clock.set(new Date('2026-11-06T08:00:00Z'));
    await settleDue(t.ctx);
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = async (token: string, url: string, query: Record<string, string> = {}) =>
    (await t.app.inject({ url, query, headers: bearer(token) })).json().data;

  /** The holder's owned accounts of `asset` summed in the books. */
  const books = async (id: bigint, asset: Asset) => {
    const rows = await t.ctx.db
      .selectFrom('accounts')
      .select(['kind', 'balance'])
      .where('user_id', '=', id)
      .where('asset', '=', asset)
      .where('kind', 'in', [...OWNED_KINDS])
      .execute();
    return { sum: rows.reduce((total, r) => total + r.balance, 0n), locked: rows.find((r) => r.kind === 'locked_rewards')?.balance ?? 0n };
  };

  it('shows one figure per asset on the Wallet, the statement and the proof, the books’ sum', async () => {
    let lockedSomewhere = 0n;
    for (const holder of holders) {
      const wallet = await get(holder.token, PATHS.getAsset);
      const statement = await get(holder.token, PATHS.statementMonthly);
      for (const asset of ASSETS) {
        const { sum, locked } = await books(holder.id, asset);
        lockedSomewhere += locked;
        const expected = formatUnits(sum);
        const where = `${holder.name} ${asset}`;
        expect(wallet.owned.find((o: { asset: string }) => o.asset === asset)?.total, where).toBe(expected);
        const closing = statement.assets.find((a: { asset: string }) => a.asset === asset)?.closing ?? '0';
        expect(closing, where).toBe(expected);
        if (sum > 0n) expect((await get(holder.token, PATHS.proofMine, { asset })).leaf.sum, where).toBe(expected);
      }
      expect(wallet.totalAic, holder.name).toBe(formatUnits((await books(holder.id, 'AIC')).sum));
    }
    // The figures include locked network income and withdrawals under review.
    expect(lockedSomewhere).toBeGreaterThan(0n);
    const hana = await get(holders[2]?.token ?? '', PATHS.getAsset);
    expect(hana.balances).toContainEqual(expect.objectContaining({ asset: 'USDT', available: '480', pending: '20' }));
    expect(hana.owned).toContainEqual(expect.objectContaining({ asset: 'USDT', total: '500' }));
  });
});
