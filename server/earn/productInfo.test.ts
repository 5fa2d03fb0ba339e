import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUnits, UNIT } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { postEntry, SYSTEM } from '../ledger/ledger.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, post, signIn } from '../test/signIn.ts';

/**
 * The Earn centre's holder figures (`holder_figures`, gathered): holders asking in the same
 * moment each get their own wallet, quota left, bind and rewards.
 */
describe.each(DATABASES)('the Earn centre of holders asking at once on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t?.close());

  it('answers each holder with their own figures', async () => {
    const root = await signIn(t.app, { name: 'info-root' });
    const code = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(root.token) })).json().data.inviteCode;
    const holders = [
      { name: 'info-0', recharge: 500n, buy: 100n, bind: true, rewards: 7n },
      { name: 'info-1', recharge: 300n, buy: 0n, bind: false, rewards: 0n },
      { name: 'info-2', recharge: 1000n, buy: 250n, bind: true, rewards: 3n },
    ];
    const tokens: string[] = [];
    for (const h of holders) {
      const { token, userId } = await signIn(t.app, { name: h.name });
      tokens.push(token);
      await post(t.app, PATHS.transferIn, token, { asset: 'AIC', amount: String(h.recharge) });
      if (h.bind) await post(t.app, PATHS.bindInviter, token, { inviteCode: code });
      if (h.buy) expect((await post(t.app, PATHS.productBuy, token, { product: 'current', amount: String(h.buy) })).json().code).toBe(0);
      if (h.rewards) {
        const postings = [
          { userId: SYSTEM, asset: 'AIC' as const, kind: 'exchange' as const, amount: -h.rewards * UNIT },
          { userId: BigInt(userId), asset: 'AIC' as const, kind: 'rewards' as const, amount: h.rewards * UNIT },
        ];
        await t.ctx.db.transaction().execute((trx) => postEntry(trx, { kind: 'recharge', postings }));
      }
    }
    const answers = await Promise.all(tokens.map(async (token) => (await t.app.inject({ url: PATHS.productInfo, headers: bearer(token) })).json()));
    for (const [i, h] of holders.entries()) {
      const data = answers[i].data;
      expect(data.available).toBe(formatUnits((h.recharge - h.buy) * UNIT));
      expect(data.quotaLeft).toBe(formatUnits(BigInt(data.dailyQuota) * UNIT - h.buy * UNIT));
      expect(data.inviterBound).toBe(h.bind);
      expect(data.rewards).toBe(formatUnits(h.rewards * UNIT));
    }
  });
});
