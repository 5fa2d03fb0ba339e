import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ProductInfoData } from '../contract/earn.ts';
import { formatAmount, formatFigure } from '../contract/format.ts';
import { formatUnits, parseAmount, UNIT } from '../contract/money.ts';
import type { AssetData } from '../contract/wallet.ts';
import { EarnPage } from './pages/EarnPage.ts';
import { WalletPage } from './pages/WalletPage.ts';
import { callApi, loseFirstAnswer, recordPostKeys } from './support/api.ts';
import { phonePage } from './support/browser.ts';
import { signInThroughExchange, storedCookie } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

const text = async (locator: { textContent: () => Promise<string | null> }) => (await locator.textContent())?.trim();
const shown = (units: bigint) => formatAmount(formatUnits(units));

/** Current income after n cycles: each cycle pays (principal + income) × 0.1%, truncated. */
function currentIncome(principal: bigint, cycles: number): bigint {
  let holding = principal;
  for (let i = 0; i < cycles; i++) holding += (holding * 1n) / 1000n;
  return holding - principal;
}

describe('earn products at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ OPERATOR_USER_IDS: '1' }, (run) => ({ server, browser } = run));

  const api = <T>(path: string, token: string, body?: object) => callApi<T>(server.baseUrl, path, token, body);

  /** The operator moves the server clock forward; every finished day and cycle settles. */
  const advance = (days: number, token: string) => api<{ now: string }>('/api/operator/clock/advance', token, { days });

  const screenshot = (page: Page, name: string) => page.screenshot({ path: `/tmp/earn-${name}.png`, fullPage: true });

  it('binds an inviter, subscribes to the three products, and redeems and claims after 31 days', async () => {
    // The operator signs in first, in its own context, so it is user 1; it binds nothing.
    const operator = await phonePage(browser, 'en-US');
    await signInThroughExchange(operator.page, server.baseUrl, { create: 'Olga' });
    expect(await storedCookie(operator.page, 'userId')).toBe('1');
    const operatorToken = (await storedCookie(operator.page, 'token')) as string;
    const { inviteCode } = await api<{ inviteCode: string }>('/api/user/info', operatorToken);

    // The holder moves 5,000 AIC from the exchange into the platform wallet.
    const { page, errors } = await phonePage(browser, 'en-US');
    await signInThroughExchange(page, server.baseUrl, { create: 'Hana' });
    const holderToken = (await storedCookie(page, 'token')) as string;
    const wallet = new WalletPage(page, server.baseUrl);
    await wallet.goto();
    await wallet.openMove('Transfer in');
    await wallet.submit('Transfer in', '5000');
    await wallet.confirm();
    await page.getByText('Operation successful').waitFor();
    await expect.poll(() => text(wallet.balance('AIC', 'Available'))).toBe('5,000.00');

    // An invite link prefills the bind step, which every product shows until an inviter is bound.
    const earn = new EarnPage(page, server.baseUrl);
    await earn.goto(`?inviteCode=${inviteCode}`);
    expect(await text(earn.product('Current').getByTestId('rate-current'))).toBe('0.1% daily · 36.5% APR');
    expect(await earn.bindInput('Current').inputValue()).toBe(inviteCode);
    await earn.submitBind('Current', '  ');
    expect(await text(earn.bindStep('Current').getByRole('alert'))).toBe('Invitation code cannot be empty');
    await earn.submitBind('Current', inviteCode);
    expect(await text(earn.confirmDialog)).toContain(`Bind the invitation code ${inviteCode}?`);
    await earn.confirm();
    await page.getByText('Binding successful').waitFor();
    await earn.amountInput('Current').waitFor();

    // Current: the rules run before anything is sent; Max fills the wallet (within the quota).
    await earn.submit('Current');
    expect(await text(earn.formError('Current'))).toBe('Please enter the quantity');
    await earn.submit('Current', '0.5');
    expect(await text(earn.formError('Current'))).toBe('The minimum subscription is 1 AIC');
    await earn.submit('Current', '5000.01');
    expect(await text(earn.formError('Current'))).toBe('Insufficient balance');
    await earn.fillMax('Current');
    expect(await earn.amountInput('Current').inputValue()).toBe('5000');
    expect(await earn.formNote('Current', /^Quota left today/).textContent()).toBe('Quota left today: 10,000.00 AIC');
    await earn.amountInput('Current').fill('1000');
    expect(await text(earn.previewFigure('Current', 'Per day'))).toBe('1.00 AIC');

    // The first answer is lost on the way back (the server did take the order): retrying the
    // same confirmed subscription sends the same Idempotency-Key, so there is one order.
    const keys = recordPostKeys(page, '/api/product/buy');
    await loseFirstAnswer(page, '**/api/product/buy');
    await earn.submit('Current');
    expect(await text(earn.confirmDialog)).toContain('Subscribe 1,000.00 AIC to Current?');
    await earn.confirm();
    await page.getByText('Network connection failure').waitFor();
    await earn.submit('Current');
    await earn.confirm();
    await page.getByText('Subscription successful').waitFor();
    await page.unroute('**/api/product/buy');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    await expect.poll(() => earn.amountInput('Current').inputValue()).toBe('');

    // 30 days: income per day and over the term.
    await earn.openTab('30 days');
    expect(await text(earn.product('30 days').getByTestId('rate-fixed30'))).toBe('0.3% daily · 109.5% APR');
    await earn.amountInput('30 days').fill('1000');
    expect(await text(earn.previewFigure('30 days', 'Per day'))).toBe('3.00 AIC');
    expect(await text(earn.previewFigure('30 days', 'Over 30 days'))).toBe('90.00 AIC');
    await earn.submit('30 days');
    await earn.confirm();
    await expect.poll(() => earn.formNote('30 days', /^Quota left today/).textContent()).toBe('Quota left today: 8,000.00 AIC');

    // 360 days: today's coefficient and the power the amount gets, with the projection chart.
    await earn.openTab('360 days');
    const info = await api<ProductInfoData>('/api/product/info', holderToken);
    await earn.amountInput('360 days').fill('500');
    const coefficient = parseAmount(info.coefficient);
    // 5 × 500 × c, with c in 1e-8 units: the power in 1e-8 units, exact.
    const power = 5n * 500n * (coefficient.ok ? coefficient.value : 0n);
    expect(await text(earn.previewFigure('360 days', 'Computing power'))).toBe(shown(power));
    expect(await text(earn.product('360 days'))).toContain(`Power = 5 × quantity × ${formatFigure(info.coefficient)}`);
    await earn.projectionChart.waitFor();
    await screenshot(page, 'subscribe-360');
    await earn.submit('360 days');
    await earn.confirm();
    await expect.poll(() => earn.formNote('360 days', /^Quota left today/).textContent()).toBe('Quota left today: 7,500.00 AIC');

    expect(new Set(keys).size).toBe(3);

    // The orders: newest first, current in progress, fixed terms confirming until tomorrow.
    await expect.poll(() => earn.orders.getByRole('listitem').count()).toBe(3);
    const current = earn.order('Current');
    const fixed = earn.order('30 days');
    const long = earn.order('360 days');
    expect(await text(earn.orderStatus(current))).toBe('In progress');
    expect(await text(earn.orderStatus(fixed))).toBe('Confirming');
    // Remaining days are the countdown's whole days: 30 and some hours to the maturity date.
    expect(await text(earn.orderFigure(fixed, 'Remaining days'))).toBe('30 days');
    expect(await text(earn.orderFigure(current, 'Redeemable'))).toBe('1,000.00 AIC');
    // The redemption countdown ticks each second.
    const before = await text(earn.orderFigure(fixed, 'Redemption countdown'));
    await expect.poll(() => text(earn.orderFigure(fixed, 'Redemption countdown')), { timeout: 3000 }).not.toBe(before);
    expect(await earn.redeemButton(fixed).count()).toBe(0);
    await earn.endOfList().waitFor();

    // Reinvestment of the 360-day order: switched on, then cancelled, each confirmed.
    await earn.reinvestSwitch(long).click();
    expect(await text(earn.confirmDialog)).toContain('Reinvest static and dynamic earnings?');
    await earn.confirm();
    await expect.poll(() => earn.reinvestSwitch(long).getAttribute('aria-checked')).toBe('true');
    await earn.reinvestSwitch(long).click();
    expect(await text(earn.confirmDialog)).toContain('Cancel reinvestment?');
    await earn.confirm();
    await expect.poll(() => earn.reinvestSwitch(long).getAttribute('aria-checked')).toBe('false');

    // The filter: only 30-day orders, then all again.
    await earn.filterByType('30 days');
    await expect.poll(() => earn.orders.getByRole('listitem').count()).toBe(1);
    await earn.filterByType('All');
    await expect.poll(() => earn.orders.getByRole('listitem').count()).toBe(3);
    await screenshot(page, 'center-orders');

    // 29 days later: the 30-day order has accrued 28 days (it started the day after purchase)
    // and matures in 1 day and some hours.
    await advance(29, operatorToken);
    await page.reload();
    await earn.heading.waitFor();
    await expect.poll(() => text(earn.orderStatus(fixed))).toBe('In progress');
    expect(await text(earn.orderFigure(fixed, 'Income'))).toBe('84.00 AIC');
    expect(await text(earn.orderFigure(fixed, 'Remaining days'))).toBe('1 day');
    expect(await text(earn.orderFigure(current, 'Income'))).toBe(`${shown(currentIncome(1000n * UNIT, 29))} AIC`);

    // Two more days: the 30-day term is over. The demo clock is now 31 days on, past a session's
    // 30, but sessions live on the wall clock: Hana is still signed in (issue 61).
    await advance(2, operatorToken);
    await page.reload();
    await earn.heading.waitFor();
    expect(await page.getByTestId('session-ended').count()).toBe(0);

    expect(await text(earn.orderFigure(current, 'Income'))).toBe(`${shown(currentIncome(1000n * UNIT, 31))} AIC`);
    await expect.poll(() => text(earn.orderStatus(fixed))).toBe('Redeemable');
    expect(await text(earn.orderFigure(fixed, 'Redeemable'))).toBe('1,090.00 AIC');
    expect(await text(earn.orderFigure(fixed, 'Income'))).toBe('90.00 AIC');
    await earn.incomeChart.waitFor();
    expect(await text(earn.incomeSummary)).toMatch(/AIC earned in 30 days/);
    await screenshot(page, 'center-matured');

    // Redeem both: the current order any time, the 30-day one now that it has matured.
    await earn.redeemButton(current).click();
    await earn.submitRedeemForm();
    expect(await text(earn.confirmDialog)).toContain('Redeem');
    await earn.confirm();
    await expect.poll(() => text(earn.orderStatus(current))).toBe('Redeemed');
    await earn.redeemButton(fixed).click();
    expect(await text(earn.confirmDialog)).toContain('Redeem 1,090.00 AIC into your wallet?');
    await earn.confirm();
    await expect.poll(() => text(earn.orderStatus(fixed))).toBe('Redemption successful');

    // Claim the 360-day static earnings: exactly what the server holds as rewards.
    const { rewards } = await api<ProductInfoData>('/api/product/info', holderToken);
    expect(await text(earn.rewardsAmount)).toBe(`${formatAmount(rewards)} AIC`);
    await earn.claim();
    await earn.confirm();
    await page.getByText(`Received successfully: ${formatAmount(rewards)} AIC`).waitFor();
    await expect.poll(() => text(earn.rewardsAmount)).toBe('0.00 AIC');

    // The 30-day financial record: the order and its 30 days of income, page by page.
    await earn.gotoThirtyDays();
    expect(await text(earn.orderStatus(earn.order('30 days', earn.thirtyDayOrders)))).toBe('Redemption successful');
    await expect.poll(() => earn.incomeRecords.getByRole('listitem').count()).toBeGreaterThanOrEqual(20);
    expect(await text(earn.incomeRecords.getByRole('listitem').first())).toContain('+3.00');
    await page.mouse.wheel(0, 4000);
    await earn.endOfList(earn.incomeRecordsSection).waitFor();
    await expect.poll(() => earn.incomeRecords.getByRole('listitem').count()).toBe(30);
    await screenshot(page, 'thirtydays');

    // The wallet shows exactly what the server holds.
    const asset = await api<AssetData>('/api/getAsset', holderToken);
    const available = asset.balances.find((b) => b.asset === 'AIC')?.available;
    await wallet.goto();
    await expect.poll(() => text(wallet.balance('AIC', 'Available'))).toBe(formatAmount(available));

    expect(errors).toEqual([]);
    expect(operator.errors).toEqual([]);
  });
});
