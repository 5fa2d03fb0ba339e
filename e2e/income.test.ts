import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { UserInfoData } from '../contract/team.ts';
import { IncomePage } from './pages/IncomePage.ts';
import { callApi } from './support/api.ts';
import { phonePage } from './support/browser.ts';
import { signInThroughExchange, storedCookie } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

const TODAY = '2026-11-20';
const text = async (locator: { textContent: () => Promise<string | null> }) => (await locator.textContent())?.trim();

describe('income you can recompute, and rate changes announced ahead, at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ OPERATOR_USER_IDS: '1', CLOCK_START: `${TODAY}T08:00:00Z` }, (run) => ({ server, browser } = run));
  const api = <T>(path: string, token: string, body?: object) => callApi<T>(server.baseUrl, path, token, body);

  it('explains an income line with its numbers, and shows an announced rate change before it applies', async () => {
    const operator = await phonePage(browser, 'en-US');
    await signInThroughExchange(operator.page, server.baseUrl, { create: 'Olga' });
    const olgaToken = (await storedCookie(operator.page, 'token')) as string;
    const olga = await api<UserInfoData>('/api/user/info', olgaToken);

    const { page, errors } = await phonePage(browser, 'en-US');
    await signInThroughExchange(page, server.baseUrl, { create: 'Hana' });
    const token = (await storedCookie(page, 'token')) as string;
    await api('/api/user/bind', token, { inviteCode: olga.inviteCode });
    await api('/api/transfer-in', token, { asset: 'AIC', amount: '2000' });
    await api('/api/product/buy', token, { product: 'fixed30', amount: '1234.5' });
    // The operator announces a new 30-day rate 7 days ahead, then two days are settled.
    await api('/api/operator/params', olgaToken, { name: 'earn.fixed30.daily_rate', value: '0.0035', effectiveDay: '2026-11-27' });
    await api('/api/operator/clock/advance', olgaToken, { days: 2 });

    const income = new IncomePage(page, server.baseUrl);
    await income.open();
    await income.showKind('30 days');
    const dialog = await income.explain('30 days');
    expect(await text(dialog.getByTestId('income-expression'))).toBe('1,234.5 × 0.3% = 3.7035 AIC');
    expect(await text(dialog)).toContain('principal 1,234.5 AIC × daily rate 0.3% (rate version: default since launch)');
    await page.screenshot({ path: '/tmp/income-how.png' });
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();

    // The centre's 30-day card names the coming change and its day; the history lists it.
    await page.goto(`${server.baseUrl}/#/center?tab=fixed30`);
    const notice = page.getByRole('region', { name: '30 days' }).getByRole('note');
    await expect.poll(() => text(notice)).toBe('Change announced: 30 days: daily rate becomes 0.35% from 2026-11-27');
    await income.openRates();
    const versions = income.versions('30 days: daily rate');
    await expect.poll(() => versions.count()).toBe(2);
    expect(await text(versions.nth(0))).toMatch(/^0\.35%Announced\s*From 2026-11-27\s*Announced 2026-11-20$/);
    expect(await text(versions.nth(1))).toMatch(/^0\.3%In force\s*default since launch$/);
    expect(await text(page.getByText(/announced at least/))).toBe(
      'Changes to rates and earn terms are announced at least 7 days before they apply. Days already settled never change.',
    );
    await page.screenshot({ path: '/tmp/income-rates.png', fullPage: true });
    expect(errors).toEqual([]);
  });
});
