import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ActivityData } from '../contract/activity.ts';
import type { UserInfoData } from '../contract/team.ts';
import { ActivityPage } from './pages/ActivityPage.ts';
import { DualView } from './pages/DualView.ts';
import { EarnPage } from './pages/EarnPage.ts';
import { MyPage } from './pages/MyPage.ts';
import { callApi } from './support/api.ts';
import { phonePage } from './support/browser.ts';
import { signInThroughExchange, storedCookie } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

const text = async (locator: { textContent: () => Promise<string | null> }) => (await locator.textContent())?.trim();
const TODAY = '2026-11-20';

/**
 * The server's clock starts on 2026-11-20 08:00 UTC, inside the recruitment activity (from the
 * launch day 2026-11-01, 60 days, then 60 days of assessment).
 */
describe('dual-currency centre, platform figures and the recruitment activity at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ OPERATOR_USER_IDS: '1', CLOCK_START: `${TODAY}T08:00:00Z` }, (run) => ({ server, browser } = run));

  const api = <T>(path: string, token: string, body?: object) => callApi<T>(server.baseUrl, path, token, body);
  const screenshot = (page: Page, name: string) => page.screenshot({ path: `/tmp/activity-${name}.png`, fullPage: true });

  it('values the holdings in USDT at the price in force, and shows the activity with its countdown and unlock progress', async () => {
    const operator = await phonePage(browser, 'en-US');
    await signInThroughExchange(operator.page, server.baseUrl, { create: 'Olga' });
    const olgaToken = (await storedCookie(operator.page, 'token')) as string;
    const olga = await api<UserInfoData>('/api/user/info', olgaToken);

    // Hana binds Olga, moves 6,000 AIC in and subscribes them to the 30-day product in the centre.
    const { page, errors } = await phonePage(browser, 'en-US');
    const home = await signInThroughExchange(page, server.baseUrl, { create: 'Hana' });
    const hanaToken = (await storedCookie(page, 'token')) as string;
    await api('/api/user/bind', hanaToken, { inviteCode: olga.inviteCode });
    await api('/api/transfer-in', hanaToken, { asset: 'AIC', amount: '6000' });
    await home.mainButton('Start earning').click();
    const earn = new EarnPage(page, server.baseUrl);
    await earn.heading.waitFor();
    await earn.openTab('30 days');
    await earn.submit('30 days', '6000');
    await earn.confirm();
    await page.getByText('Subscription successful').waitFor();

    // The holdings in AIC alone, then in AIC and USDT side by side at 0.85.
    const dual = new DualView(page);
    await dual.region.scrollIntoViewIfNeeded();
    await expect.poll(() => dual.row('30 days')).toEqual(['6,000.00']);
    expect(await dual.columns.allTextContents()).toEqual(['Item', 'AIC']);
    await dual.choose('AIC / USDT');
    expect(await dual.columns.allTextContents()).toEqual(['Item', 'AIC', 'USDT']);
    expect(await dual.row('30 days')).toEqual(['6,000.00', '5,100.00']);
    expect(await dual.row('Current')).toEqual(['0.00', '0.00']);
    expect(await dual.row('Claimable now')).toEqual(['0.00', '0.00']);
    expect(await text(dual.price)).toBe('Valued at 1 AIC = 0.85 USDT, the price in force today.');
    await page.locator('.adm-toast-main').waitFor({ state: 'hidden' });
    await dual.region.screenshot({ path: '/tmp/activity-dual-0.85.png' });

    // The operator sets the price from today on; after a reload the choice is remembered and the
    // USDT values follow the new price.
    await api('/api/operator/params', olgaToken, { name: 'price.aic_usd', value: '1.2', effectiveDay: TODAY });
    await page.reload();
    await earn.heading.waitFor();
    await expect.poll(() => dual.choice('AIC / USDT').getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => dual.row('30 days')).toEqual(['6,000.00', '7,200.00']);
    expect(await text(dual.price)).toBe('Valued at 1 AIC = 1.2 USDT, the price in force today.');
    await screenshot(page, 'center-dual');

    // Home: the platform figures, from the ledger and the orders.
    await page.goto(`${server.baseUrl}/#/home`);
    const figures = page.getByRole('region', { name: 'Platform figures' });
    const figure = (label: string) =>
      figures.locator('.figure', { has: page.getByRole('term').filter({ hasText: new RegExp(`^${label}$`) }) }).getByRole('definition');
    await expect.poll(() => text(figure('Subscribed'))).toBe('6,000.00 AIC');
    expect(await text(figure('Total network output'))).toBe('0.00 AIC');
    expect(await text(figure('Latest day\'s output'))).toBe('--');
    expect(await text(figure('Supercomputing pool'))).toBe('1,000,000.00 AIC');
    expect(await text(figure('Treasury pool'))).toBe('500,000.00 AIC');
    expect(await text(figure('Rate'))).toBe('0.3% daily · 109.5% APR');
    await screenshot(page, 'home');

    // The recruitment activity, from home: the phase, a live countdown, the figures, the unlock.
    await page.getByRole('link', { name: /^Open the activity/ }).click();
    const activity = new ActivityPage(page, server.baseUrl);
    await activity.heading.waitFor();
    expect(await text(activity.phase)).toBe('Network activity');
    const first = (await text(activity.countdown)) as string;
    expect(first).toMatch(/^40d 1[56]:\d\d:\d\d$/);
    await expect.poll(() => text(activity.countdown), { timeout: 3000 }).not.toBe(first);
    const phase = activity.section('Current phase');
    expect(await text(activity.figure(phase, 'Network activity (60 days)'))).toBe('2026-11-01 to 2026-12-30');
    expect(await text(activity.figure(phase, 'Assessment (60 days)'))).toBe('2026-12-31 to 2027-02-28');
    const own = activity.section('My performance in the activity');
    expect(await text(activity.figure(own, 'My subscriptions still held'))).toBe('6,000.00 AIC');
    expect(await text(activity.figure(own, 'Direct invitees added'))).toBe('0');
    expect(await text(activity.unlockPercent)).toBe('30%');
    expect(await activity.unlockBar.getAttribute('aria-valuenow')).toBe('60');
    expect(await activity.unlockBar.getAttribute('aria-valuetext')).toBe('6,000.00 of 10,000.00 AIC held, 30% unlocked');
    await screenshot(page, 'page');

    // The team's figures are the last settled day's, rolled up as it settles: none has yet, and
    // the page says when they will show.
    await activity.page.getByText('Invitees and team figures appear once the first day settles.').waitFor();

    // Olga's side: Hana joined inside the activity, with her 6,000 AIC. Her team's figures wait
    // for the day to settle; the records can be narrowed to the activity and list her now.
    const olgaActivity = await api<ActivityData>('/api/activity', olgaToken);
    expect(olgaActivity.own).toEqual({ subscribed: '0', directInvites: 0, directEffective: 0 });
    expect(olgaActivity.team).toEqual({ newMembers: 0, newEffective: 0, quantityAdded: '0', asOf: null });
    const my = new MyPage(operator.page, server.baseUrl);
    await my.goto();
    const within = operator.page.getByRole('switch', { name: 'Within the activity' });
    await within.click();
    await expect.poll(() => within.getAttribute('aria-checked')).toBe('true');
    await operator.page.getByText('Joined from 2026-11-01 to 2026-12-30').waitFor();
    const hana = await api<UserInfoData>('/api/user/info', hanaToken);
    await my.record('Hana', hana.userId).waitFor();

    expect(errors).toEqual([]);
    expect(operator.errors).toEqual([]);
  });
});
