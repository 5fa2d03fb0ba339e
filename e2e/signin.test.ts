import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CenterPage } from './pages/CenterPage.ts';
import { ExchangeSignInPage } from './pages/ExchangeSignInPage.ts';
import { HomePage } from './pages/HomePage.ts';
import { MyPage } from './pages/MyPage.ts';
import { TabBar } from './pages/TabBar.ts';
import { phonePage } from './support/browser.ts';
import { storedCookie } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

describe('sign-in through the exchange at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({}, (run) => ({ server, browser } = run));

  it('redirects, signs in, reaches /center, logs out, and a bad token forces logout', async () => {
    const { page, errors } = await phonePage(browser, 'en-US');
    const exchange = new ExchangeSignInPage(page);
    const home = new HomePage(page, server.baseUrl);

    // Nothing stored: home asks for the authorisation address and goes to the exchange.
    await page.goto(`${server.baseUrl}/`);
    await exchange.waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to the exchange');
    await exchange.pickAccount('Alice');

    // Back on home, signed in: token and userId stored, dashboard loaded, no code in the bar.
    await home.totalAmount.waitFor();
    expect(await storedCookie(page, 'token')).toMatch(/^\d+\.[\w-]{32}$/);
    expect(await storedCookie(page, 'userId')).toMatch(/^\d+$/);
    expect(page.url()).not.toContain('code=');

    // The main button goes to the earn-coins centre.
    await home.mainButton('Start earning').click();
    await new CenterPage(page).tab('Current').waitFor();
    expect(page.url()).toContain('#/center');

    // Logout, under My: toast, storage cleared, and after 1 s back to the exchange.
    await new TabBar(page).open('My');
    await new MyPage(page, server.baseUrl).logoutButton.click();
    await page.getByText('Logged out successfully, re-authorizing').waitFor();
    expect(await storedCookie(page, 'token')).toBeUndefined();
    await exchange.waitFor();

    // Sign in again, then tamper with the stored token: the next call forces logout.
    await exchange.pickAccount('Alice');
    await home.totalAmount.waitFor();
    const token = (await storedCookie(page, 'token')) as string;
    const tampered = `${token.slice(0, -2)}xx`;
    await page.context().addCookies([{ name: 'aic_earn_token', value: tampered, url: server.baseUrl }]);
    await page.goto(`${server.baseUrl}/#/center`);
    // The centre's first protected call answers 401: storage cleared, home, reload; Home says
    // the session ended, and Sign in authorises again.
    await page.getByTestId('session-ended').waitFor();
    expect(await storedCookie(page, 'token')).toBeUndefined();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await exchange.waitFor();
    expect(errors).toEqual([]);
  });

  it('returns to the page the user came from (redirectRefer)', async () => {
    const { page, errors } = await phonePage(browser, 'en-US');
    await page.goto(`${server.baseUrl}/#/thirtydays`);
    await new ExchangeSignInPage(page).createAccount('Erin');
    await page.waitForURL(/#\/thirtydays$/);
    await page.getByRole('heading', { name: '30-day financial record' }).waitFor();
    expect(await storedCookie(page, 'token')).toMatch(/^\d+\./);
    expect(errors).toEqual([]);
  });
});
