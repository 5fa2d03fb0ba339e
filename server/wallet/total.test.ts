import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUnits, mulRate, parseAmount } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { productOf } from '../../contract/products.ts';
import type { Product } from '../db/schema.ts';
import { fixedClock } from '../platform/clock.ts';
import { PARAM, setParam } from '../platform/params.ts';
import { settleDue } from '../settlement/settle.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, post, signIn } from '../test/signIn.ts';

/**
 * Issue 44, "Totals that add up", and issue 61, "One truth about what a holder owns": the
 * wallet's total assets count what is in earn products, claimable and locked as well as the
 * wallet, each as its own figure; each asset is its own total, the sum of the holder's ledger
 * accounts (their proof leaf's); the whole in USD at the price in force.
 */
describe.each(DATABASES)('total assets on %s', (kind) => {
  let t: TestApp;
  let holder = '';
  let holderId = 0n;

  beforeAll(async () => {
    t = await startTestApp(kind, { clock: fixedClock(new Date('2026-11-01T08:00:00Z')), config: { sessionTtlDays: 1000 } });
    const inviter = (await signIn(t.app, { name: 'Olga' })).token;
    const hana = await signIn(t.app, { name: 'Hana' });
    holder = hana.token;
    holderId = BigInt(hana.userId);
    const { inviteCode } = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(inviter) })).json().data;
    expect((await post(t.app, PATHS.bindInviter, holder, { inviteCode })).json().code).toBe(0);
  });
  afterAll(async () => {
    await t?.close();
  });

  const asset = async () => (await t.app.inject({ url: PATHS.getAsset, headers: bearer(holder) })).json().data;
  const positions = async () => (await t.app.inject({ url: PATHS.positions, headers: bearer(holder) })).json().data;
  const units = (text: string): bigint => {
    const parsed = parseAmount(text);
    if (!parsed.ok) throw new Error(`not an amount: ${text}`);
    return parsed.value;
  };
  /** The holder's accounts of `asset` in the books, by kind, and their sum. */
  const accounts = async (asset: 'AIC' | 'USDT' = 'AIC') => {
    const rows = await t.ctx.db.selectFrom('accounts').select(['kind', 'balance']).where('user_id', '=', holderId).where('asset', '=', asset).execute();
    const of = (kind: string) => rows.find((r) => r.kind === kind)?.balance ?? 0n;
    const sum = rows.reduce((total, r) => total + r.balance, 0n);
    return { wallet: of('wallet'), earning: of('earning'), rewards: of('rewards'), network_rewards: of('network_rewards'), locked_rewards: of('locked_rewards'), sum };
  };
  const buy = async (product: string, amount: string) =>
    expect((await post(t.app, PATHS.productBuy, holder, { product, amount })).json().code).toBe(0);

  it('counts what is subscribed in the total, next to the wallet', async () => {
    expect((await post(t.app, PATHS.transferIn, holder, { asset: 'AIC', amount: '10000' })).json().code).toBe(0);
    expect((await post(t.app, PATHS.recharge, holder, { asset: 'USDT', amount: '85' })).json().code).toBe(0);
    await buy('current', '1000');
    await buy('fixed30', '2000');
    await buy('reinvest360', '2000');
    const reinvested = (await post(t.app, PATHS.productBuy, holder, { product: 'reinvest360', amount: '1000' })).json().data;
    expect((await post(t.app, PATHS.oneRebuy, holder, { orderId: reinvested.id })).json().code).toBe(0);
    // 4,000 AIC left and 6,000 in products; the 85 USDT its own total, never counted as AIC;
    // together 10,000 × 0.85 + 85 USD.
    expect(await asset()).toMatchObject({
      walletAic: '4000',
      earnAic: '6000',
      claimableAic: '0',
      lockedAic: '0',
      totalAic: '10000',
      owned: [
        { asset: 'AIC', total: '10000', usd: '8500' },
        { asset: 'USDT', total: '85', usd: '85' },
      ],
      totalUsd: '8585',
      price: '0.85',
    });
  });

  it('keeps a matured order in products until it is redeemed, counted once, at the price in force', async () => {
    // Settled to 2026-12-03: the 30-day order (11-02 to 12-02) has matured with 30 days of 0.3%
    // (2,000 + 180, redeemable now, still in products); the current order has run 32 compounding cycles of 0.1%; the
    // 360-day orders have earned 31 days of the pool's output, each day held to 0.5% of the
    // principal by the cap: 2,000 × 0.5% = 10 a day into rewards, and 1,000 reinvested at 0.5% a
    // day, compounding (1,167.20708316 after 31 days).
    t.ctx.clock.set(new Date('2026-12-03T08:00:00Z'));
    await settleDue(t.ctx);
    await setParam(t.ctx.db, PARAM.aicPriceUsd, '2026-12-03', '1.2');
    const data = await asset();
    const held = await positions();
    expect(held.claimable.fixed).toBe('2180');

    // The figures add up, in units: AIC total = wallet + products + claimable + locked, each
    // asset's total the sum of its accounts in the books; USD = AIC × 1.2 + USDT.
    const [wallet, earn, claimable, locked, total] = [units(data.walletAic), units(data.earnAic), units(data.claimableAic), units(data.lockedAic), units(data.totalAic)];
    expect(total).toBe(wallet + earn + claimable + locked);
    const [books, usdt] = [await accounts('AIC'), await accounts('USDT')];
    expect(total).toBe(books.sum);
    expect(data.owned).toEqual([
      { asset: 'AIC', total: formatUnits(books.sum), usd: formatUnits(mulRate(books.sum, '1.2')) },
      { asset: 'USDT', total: formatUnits(usdt.sum), usd: formatUnits(usdt.sum) },
    ]);
    expect(data.totalUsd).toBe(formatUnits(mulRate(total, '1.2') + usdt.sum));
    // The books agree with each line.
    expect(wallet).toBe(books.wallet);
    expect(locked).toBe(books.locked_rewards);
    // Claimable is what the Claim buttons move: the 360-day rewards and unlocked network income.
    expect(claimable).toBe(books.rewards + books.network_rewards);
    expect(claimable).toBe(units(held.claimable.rewards) + units(held.claimable.network));
    expect(earn).toBe(books.earning);
    // The positions screen's products hold the same: principal, and the income still in the
    // order (a 360-day order's went to rewards or into its principal).
    const inOrders = (held.products as { product: Product; principal: string; income: string }[]).reduce(
      (sum, p) => sum + units(p.principal) + (productOf(p.product).kind === 'pool' ? 0n : units(p.income)),
      0n,
    );
    expect(inOrders).toBe(earn);
    expect(data).toMatchObject({
      walletAic: '4000',
      earnAic: '6379.70807919',
      claimableAic: '310',
      totalAic: '10689.70807919',
      totalUsd: '12912.64969502',
      price: '1.2',
    });
  });
});
