import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ExchangeSignInPage } from './pages/ExchangeSignInPage.ts';
import { MyPage } from './pages/MyPage.ts';
import { TabBar } from './pages/TabBar.ts';
import { phonePage } from './support/browser.ts';
import { signInThroughExchange, storedCookie } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

/** An answer as the server would send it for a refusal: the envelope with its code. */
const refusal = (status: number, code: number, msg: string) => ({
  status,
  contentType: 'application/json',
  body: JSON.stringify({ code, msg, data: null }),
});

/**
 * How long a toast with `text` stays on screen, in ms, timed in the page itself (a
 * MutationObserver), so that a busy machine delaying the test does not change the figure.
 * Call before the action that shows it; await the returned function after.
 */
async function timeToast(page: Page, text: string): Promise<() => Promise<number>> {
  await page.evaluate((wanted) => {
    const times: { shown?: number; hidden?: number } = {};
    (window as unknown as { toastTimes: typeof times }).toastTimes = times;
    const check = () => {
      const visible = [...document.querySelectorAll('.adm-toast-main')].some(
        (el) => el.textContent?.includes(wanted) && el.checkVisibility(),
      );
      if (visible && times.shown === undefined) times.shown = performance.now();
      if (!visible && times.shown !== undefined && times.hidden === undefined) times.hidden = performance.now();
    };
    new MutationObserver(check).observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
  }, text);
  return async () => {
    const toast = page.locator('.adm-toast-main').filter({ hasText: text });
    await toast.waitFor();
    await toast.waitFor({ state: 'hidden' });
    return page.evaluate(() => {
      const { shown = Number.NaN, hidden = Number.NaN } = (window as unknown as { toastTimes: { shown?: number; hidden?: number } }).toastTimes;
      return hidden - shown;
    });
  };
}

/**
 * Spec sections 7 to 9, how the app handles answers: a failed login is silent, the
 * authorisation address's and the dashboard's refusals show their message as a toast for 2 s,
 * and logout and forced logout wait 1 s before they leave.
 */
describe('answers and their messages at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({}, (run) => ({ server, browser } = run));

  it('clears a failed login silently, and toasts a refused authorisation address for 2 s', async () => {
    const { page, errors } = await phonePage(browser, 'en-US');
    // Code and state from the URL that the server does not know: the login fails. (The state
    // is this browser's pending sign-in, as if it had started one; a code with any other state
    // would not be exchanged at all, see loginCsrf.test.ts.)
    await page.context().addCookies([{ name: 'aic_earn_state', value: 'not-a-state', url: server.baseUrl }]);
    const login = page.waitForResponse((response) => response.url().includes('/api/login'));
    await page.goto(`${server.baseUrl}/?code=not-a-code&state=not-a-state#/home`);
    expect((await (await login).json()).code).not.toBe(0);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    for (const key of ['code', 'state', 'token', 'userId']) expect(await storedCookie(page, key), key).toBeUndefined();
    expect(await page.locator('.adm-toast-main').count()).toBe(0);

    // The authorisation address refused (the exchange's sign-in server down): its message, 2 s.
    await page.route('**/api/authorPage**', (route) => route.fulfill(refusal(502, 502, 'Gateway error')));
    const shownFor = await timeToast(page, 'Gateway error');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const shown = await shownFor();
    expect(shown).toBeGreaterThanOrEqual(1_800);
    expect(shown).toBeLessThan(3_500);
    expect(page.url()).toContain('#/home');
    expect(errors).toEqual([]);
  });

  it('toasts a dashboard refusal, and waits 1 s before logout and forced logout leave; an ended session says so', async () => {
    const { page, errors } = await phonePage(browser, 'en-US');
    await signInThroughExchange(page, server.baseUrl, { create: 'Mia' });

    // The dashboard refused (the database unreachable): its message as a toast.
    await page.route('**/api/home', (route) => route.fulfill(refusal(503, 503, 'Service unavailable')));
    await page.reload();
    await page.locator('.adm-toast-main').filter({ hasText: 'Service unavailable' }).waitFor();
    await page.unroute('**/api/home');

    // A token the server no longer knows: the next call's 401 shows its message, then after
    // 1 s the app goes home and reloads; Home says the session has ended and waits, and the
    // holder signs in again from there (issue 61: not sent to the exchange unannounced).
    // The delay is measured between the browser's own events (the 401 answer, then Home's
    // reload), not from when the test got round to seeing the toast.
    const token = (await storedCookie(page, 'token')) as string;
    await page.context().addCookies([{ name: 'aic_earn_token', value: `${token.slice(0, -2)}xx`, url: server.baseUrl }]);
    const refused = page.waitForResponse((r) => r.status() === 401).then(() => Date.now());
    const authorising: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/authorPage')) authorising.push(request.url());
    });
    await page.goto(`${server.baseUrl}/#/wallet`);
    const reloaded = page.waitForRequest((request) => request.isNavigationRequest()).then(() => Date.now());
    await page.locator('.adm-toast-main').filter({ hasText: 'Unauthorized, please log in' }).waitFor();
    expect(await storedCookie(page, 'token')).toBeUndefined();
    await page.getByTestId('session-ended').getByText('Your session has ended').waitFor();
    await page.screenshot({ path: '/tmp/session-ended-en-390.png' });
    expect((await reloaded) - (await refused)).toBeGreaterThanOrEqual(900);
    await page.waitForTimeout(500);
    expect(authorising).toEqual([]);
    let reauthorised = page.waitForRequest('**/api/authorPage**').then(() => Date.now());
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const exchange = new ExchangeSignInPage(page);
    await exchange.waitFor();
    await reauthorised;

    // Logout (under My): its message, then after 1 s authorisation again.
    await exchange.pickAccount('Mia');
    // Signed in again, she is back on the wallet she was sent away from; from there to My.
    await page.getByRole('heading', { level: 1, name: 'Asset wallet' }).waitFor();
    await new TabBar(page).open('My');
    const loggedOut = page.waitForResponse('**/api/logout').then(() => Date.now());
    reauthorised = page.waitForRequest('**/api/authorPage**').then(() => Date.now());
    await new MyPage(page, server.baseUrl).logoutButton.click();
    await page.getByText('Logged out successfully, re-authorizing').waitFor();
    await exchange.waitFor();
    expect((await reauthorised) - (await loggedOut)).toBeGreaterThanOrEqual(900);
    expect(errors).toEqual([]);
  });
});
