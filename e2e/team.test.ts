import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatAmount } from '../contract/format.ts';
import { parseAmount } from '../contract/money.ts';
import type { InviteRecordsData, UserInfoData, ZeroLogData, ZeroProfitData } from '../contract/team.ts';
import type { AssetData } from '../contract/wallet.ts';
import { EarnPage } from './pages/EarnPage.ts';
import { ExchangeSignInPage } from './pages/ExchangeSignInPage.ts';
import { MyPage } from './pages/MyPage.ts';
import { callApi } from './support/api.ts';
import { phonePage } from './support/browser.ts';
import { signInThroughExchange, storedCookie } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

const text = async (locator: { textContent: () => Promise<string | null> }) => (await locator.textContent())?.trim();
const units = (value: string) => {
  const parsed = parseAmount(value);
  if (!parsed.ok) throw new Error(`not an amount: ${value}`);
  return parsed.value;
};
const plusDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe('My: team, invitation and network income at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ OPERATOR_USER_IDS: '1' }, (run) => ({ server, browser } = run));

  const api = <T>(path: string, token: string, body?: object) => callApi<T>(server.baseUrl, path, token, body);
  const advance = (days: number, token: string) => api<{ now: string }>('/api/operator/clock/advance', token, { days });
  const availableAic = async (token: string) =>
    units((await api<AssetData>('/api/getAsset', token)).balances.find((b) => b.asset === 'AIC')?.available ?? '');
  const screenshot = (page: Page, name: string) => page.screenshot({ path: `/tmp/team-${name}.png`, fullPage: true });

  it('invites by link, earns a rebate from the team, and claims the unlocked network income', async () => {
    // The operator signs in first (user 1): the top of the tree.
    const operator = await phonePage(browser, 'en-US');
    await signInThroughExchange(operator.page, server.baseUrl, { create: 'Olga' });
    const olgaToken = (await storedCookie(operator.page, 'token')) as string;
    const olga = await api<UserInfoData>('/api/user/info', olgaToken);

    // Ava opens My from home: V0, not effective, no inviter yet, so My asks for one.
    const { page, errors } = await phonePage(browser, 'en-US');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    const home = await signInThroughExchange(page, server.baseUrl, { create: 'Ava' });
    const avaToken = (await storedCookie(page, 'token')) as string;
    await page.screenshot({ path: '/tmp/team-home.png' });
    await home.page.getByRole('button', { name: 'My', exact: true }).click();
    const my = new MyPage(page, server.baseUrl);
    await my.heading.waitFor();
    expect(await text(my.level('Ava'))).toBe('Level V0');
    expect(await text(my.effective('Ava'))).toBe('Not effective');
    await my.bind('  ');
    expect(await text(my.bindStep.getByRole('alert'))).toBe('Invitation code cannot be empty');
    await my.bind(olga.inviteCode);
    await my.confirm();
    await page.getByText('Binding successful').waitFor();
    await expect.poll(() => text(my.superiorCode)).toBe(olga.inviteCode);
    await my.copyOwnCode();
    await page.getByText('Copy successful').waitFor();

    // Ava holds 5,000 AIC in a 30-day order: effective, and her network income unlocks 30%.
    await api('/api/transfer-in', avaToken, { asset: 'AIC', amount: '5000' });
    await api('/api/product/buy', avaToken, { product: 'fixed30', amount: '5000' });
    await page.reload();
    // A reload starts the app again: wait for the figures, as the other journeys do after one.
    await my.unlockPercent.waitFor();
    await expect.poll(() => text(my.unlockPercent)).toBe('30%');
    expect(await my.unlockBar.getAttribute('aria-valuenow')).toBe('50');
    expect(await my.unlockBar.getAttribute('aria-valuetext')).toBe('5,000.00 of 10,000.00 AIC held, 30% unlocked');
    await page.getByRole('region', { name: 'Invitation records' }).getByText('No records yet').waitFor();

    // The share card: the code large, and the link, copied to the clipboard.
    const ava = await api<UserInfoData>('/api/user/info', avaToken);
    expect(await text(my.share.getByTestId('share-code'))).toBe(ava.inviteCode);
    const link = (await text(my.inviteLink)) as string;
    expect(link).toBe(`${server.baseUrl}/?inviteCode=${ava.inviteCode}#/center`);
    await my.share.scrollIntoViewIfNeeded();
    await my.share.screenshot({ path: '/tmp/team-share-card.png' });
    await my.copyLink();
    await page.getByText('Copy successful').last().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    // Ben opens the link with nothing stored, signs in at the exchange, and comes back to the
    // centre with Ava's code prefilled in the bind step.
    const ben = await phonePage(browser, 'en-US');
    await ben.page.goto(link);
    await new ExchangeSignInPage(ben.page).createAccount('Ben');
    const earn = new EarnPage(ben.page, server.baseUrl);
    await earn.heading.waitFor();
    await expect.poll(() => earn.bindInput('Current').inputValue()).toBe(ava.inviteCode);
    await earn.submitBind('Current');
    await earn.confirm();
    await ben.page.getByText('Binding successful').waitFor();
    const benToken = (await storedCookie(ben.page, 'token')) as string;
    const benInfo = await api<UserInfoData>('/api/user/info', benToken);
    expect(benInfo.inviterCode).toBe(ava.inviteCode);
    await api('/api/transfer-in', benToken, { asset: 'AIC', amount: '5000' });
    await api('/api/product/buy', benToken, { product: 'reinvest360', amount: '2000' });
    await ben.page.screenshot({ path: '/tmp/team-center-strip.png' });

    // My's reinvestment entry leads to the centre's 360-day orders, where the switch lives.
    await ben.page.getByRole('link', { name: 'My', exact: true }).click();
    const benMy = new MyPage(ben.page, server.baseUrl);
    await benMy.heading.waitFor();
    expect(await text(benMy.superiorCode)).toBe(ava.inviteCode);
    await ben.page.getByRole('link', { name: /^Go to my 360-day orders/ }).click();
    await earn.heading.waitFor();
    await expect.poll(() => earn.tab('360 days').getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => earn.orders.getByRole('listitem').count()).toBe(1);
    await earn.reinvestSwitch(earn.order('360 days')).waitFor();

    // Two days on: Ben's 360-day order has earned static output; Ava's team holds 2,000 AIC
    // (V1), so she earns a first-generation rebate, locked for 10 days.
    await advance(2, olgaToken);
    await page.reload();
    await my.heading.waitFor();
    await expect.poll(() => text(my.level('Ava'))).toBe('Level V1');
    expect(await text(my.effective('Ava'))).toBe('Effective user');
    const info = await api<UserInfoData>('/api/user/info', avaToken);
    expect(units(info.earnings.dynamic)).toBeGreaterThan(0n);
    expect(await text(my.earning('Dynamic earnings'))).toBe(`${formatAmount(info.earnings.dynamic)} AIC`);
    const profit = await api<ZeroProfitData>('/api/user/zero-profit', avaToken);
    const log = await api<ZeroLogData>('/api/user/zero-log', avaToken);
    const first = log.items.at(-1);
    expect(first).toBeDefined();
    const day = first?.day as string;
    expect(first?.unlockDay).toBe(plusDays(day, 10));
    expect(first?.unlockPercent).toBe('0.3');
    expect(await text(my.networkFigure('Locked'))).toBe(`${formatAmount(profit.locked)} AIC`);
    expect(await text(my.networkFigure('Pending unlock'))).toBe(`${formatAmount(profit.pendingUnlock)} AIC`);
    expect(await text(my.networkFigure('Next unlock'))).toBe(`${formatAmount(profit.nextUnlockAmount)} AIC on ${plusDays(day, 10)}`);
    expect(await text(my.networkClaimable)).toBe('0.00 AIC');
    expect(await text(my.teamFigure('Team quantity'))).toBe('2,000.00 AIC');
    expect(await text(my.teamFigure('Direct invitees'))).toBe('1');

    // The invitation records list Ben with his level, subscription and the rebate from his branch.
    const records = await api<InviteRecordsData>('/api/user/invite-records', avaToken);
    const benRecord = my.record('Ben', benInfo.userId);
    expect(await text(my.recordFigure(benRecord, 'Level'))).toBe('V0');
    expect(await text(my.recordFigure(benRecord, 'Subscription quantity'))).toBe('2,000.00 AIC');
    expect(await text(my.recordFigure(benRecord, 'Team quantity'))).toBe('2,000.00 AIC');
    expect(await text(my.recordFigure(benRecord, 'Rebate quantity'))).toBe(`${formatAmount(records.items[0]?.rebate)} AIC`);
    await my.endOfList('Invitation records').waitFor();
    await screenshot(page, 'my-en');

    // Ten more days: the first lock-up's 30% is released and claimable.
    const { now: serverNow } = await advance(10, olgaToken);
    await page.reload();
    await my.heading.waitFor();
    const ready = await api<ZeroProfitData>('/api/user/zero-profit', avaToken);
    expect(units(ready.claimable)).toBeGreaterThan(0n);
    await expect.poll(() => text(my.networkClaimable)).toBe(`${formatAmount(ready.claimable)} AIC`);
    const before = await availableAic(avaToken);
    await my.claimNetwork();
    expect(await text(my.confirmDialog)).toContain(`Claim ${formatAmount(ready.claimable)} AIC of network income`);
    await my.confirm();
    await page.getByText(`Received successfully: ${formatAmount(ready.claimable)} AIC`).waitFor();
    await expect.poll(() => text(my.networkClaimable)).toBe('0.00 AIC');
    expect((await availableAic(avaToken)) - before).toBe(units(ready.claimable));

    // Rebate: the same summary and the lock-ups, the first one released on its unlock day.
    await my.openRebate();
    const released = my.lockup(day);
    await released.scrollIntoViewIfNeeded();
    expect(await text(released.locator('.lockup__status'))).toBe(`Released on ${plusDays(day, 10)}`);
    expect(await text(my.lockupFigure(released, 'Unlock day'))).toBe(plusDays(day, 10));
    expect(await text(my.lockupFigure(released, 'Unlockable'))).toMatch(/ AIC \(30%\)$/);
    const lockups = await api<ZeroLogData>('/api/user/zero-log', avaToken);
    await expect.poll(() => my.lockups.getByRole('listitem').count()).toBe(lockups.items.length);
    // The newest lock-up's countdown on the server's clock (days ahead of this phone's): whole
    // days to the end of its unlock day, as the server counts them.
    const newest = lockups.items[0]?.unlockDay ?? '';
    const daysLeft = Math.floor((Date.parse(`${newest}T00:00:00Z`) + 86_400_000 - Date.parse(serverNow)) / 86_400_000);
    expect(await text(my.lockups.getByRole('listitem').first().locator('.lockup__status'))).toMatch(new RegExp(`^Unlocks in ${daysLeft}d \\d{2}:`));
    await screenshot(page, 'rebate');

    // The same screen in Simplified Chinese.
    await page.context().addCookies([{ name: 'aic_earn_lang', value: 'zh-cn', url: server.baseUrl }]);
    await page.goto(`${server.baseUrl}/#/my`);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: '我的', exact: true }).waitFor();
    await page.getByRole('region', { name: '我的团队' }).waitFor();
    await screenshot(page, 'my-zh-cn');

    expect(errors).toEqual([]);
    expect(ben.errors).toEqual([]);
    expect(operator.errors).toEqual([]);
  });
});
