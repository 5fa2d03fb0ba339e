import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ExchangeSignInPage } from './pages/ExchangeSignInPage.ts';
import { HomePage } from './pages/HomePage.ts';
import { phonePage } from './support/browser.ts';
import { storedCookie } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

/** Every call to /api/login the page makes, by address. */
function loginCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/login') calls.push(request.url());
  });
  return calls;
}

/**
 * Login CSRF (RFC 9700 §4.7.1): an attacker signs in at the exchange, stops at the redirect
 * back to the app, and sends that address (`/?code=…&state=…`) to a victim. The app signs in
 * only with a code whose state this browser started, so the victim is shown the exchange's
 * sign-in page instead of being signed in as the attacker.
 */
describe('sign-in bound to the browser that started it, at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({}, (run) => ({ server, browser } = run));

  it("refuses an attacker's code in another browser, and the normal sign-in still works", async () => {
    // The attacker (browser A) signs in as a new account and stops at the redirect back: the
    // address is captured and the app's exchange of it is cut off, so the code stays unused.
    const attacker = await phonePage(browser, 'en-US');
    const backToApp: string[] = [];
    attacker.page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === server.baseUrl && url.pathname === '/' && url.searchParams.has('code')) backToApp.push(request.url());
    });
    const isLogin = (url: URL) => url.pathname === '/api/login';
    await attacker.page.route(isLogin, (route) => route.abort());
    const cutOff = attacker.page.waitForRequest((request) => isLogin(new URL(request.url())));
    await attacker.page.goto(`${server.baseUrl}/`);
    await new ExchangeSignInPage(attacker.page).createAccount('Mallory');
    await cutOff;
    expect(backToApp).toHaveLength(1);
    const forged = backToApp[0] as string;
    const { code, state } = Object.fromEntries(new URL(forged).searchParams);
    expect(code).toBeTruthy();
    expect(state).toBeTruthy();

    // The victim (browser B, nothing stored) opens the attacker's address: not signed in, the
    // code not exchanged, the address bar cleaned, and the exchange's sign-in page shown again.
    const victim = await phonePage(browser, 'en-US');
    const victimLogins = loginCalls(victim.page);
    await victim.page.goto(forged);
    const exchange = new ExchangeSignInPage(victim.page);
    await exchange.waitFor();
    expect(await victim.page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to the exchange');
    expect(victimLogins).toEqual([]);
    expect(await storedCookie(victim.page, 'token')).toBeUndefined();
    expect(await storedCookie(victim.page, 'userId')).toBeUndefined();
    expect(await storedCookie(victim.page, 'code')).toBeUndefined();
    // The victim's own pending sign-in, with a state of its own.
    const victimState = await storedCookie(victim.page, 'state');
    expect(victimState).toBeTruthy();
    expect(victimState).not.toBe(state);
    expect(new URL(victim.page.url()).pathname).toMatch(/^\/signin\//);

    // Mid-way through its own sign-in (a state of its own stored), the victim opens the address
    // again: still refused, and a fresh authorisation replaces the pending one.
    await victim.page.goto(forged);
    await victim.page.waitForURL((url) => url.pathname.startsWith('/signin/') && url.href !== forged);
    await exchange.waitFor();
    expect(victimLogins).toEqual([]);
    expect(await storedCookie(victim.page, 'token')).toBeUndefined();
    expect(await storedCookie(victim.page, 'state')).not.toBe(state);

    // The code was never redeemed by the victim: the server still accepts it, once.
    const redeemed = (await (await fetch(`${server.baseUrl}/api/login?code=${code}&state=${state}`)).json()) as {
      code: number;
      data: { userId: string };
    };
    expect(redeemed.code).toBe(0);
    const attackerUserId = redeemed.data.userId;

    // The victim's own sign-in works and makes the victim, not the attacker.
    await exchange.pickAccount('Bob');
    const victimHome = new HomePage(victim.page, server.baseUrl);
    await victimHome.totalAmount.waitFor();
    expect(await storedCookie(victim.page, 'token')).toMatch(/^\d+\.[\w-]{32}$/);
    const victimUserId = await storedCookie(victim.page, 'userId');
    expect(victimUserId).toMatch(/^\d+$/);
    expect(victimUserId).not.toBe(attackerUserId);
    expect(victim.page.url()).not.toContain('code=');

    // Signed in, the victim opens the address once more: still Bob, nothing exchanged.
    await victim.page.goto(forged);
    await victimHome.totalAmount.waitFor();
    expect(await storedCookie(victim.page, 'userId')).toBe(victimUserId);
    expect(victimLogins).toHaveLength(1);

    // The attacker's own browser completes a sign-in with its own state (the exchange remembers
    // Mallory, so it comes straight back) and is Mallory.
    await attacker.page.unroute(isLogin);
    await attacker.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const attackerHome = new HomePage(attacker.page, server.baseUrl);
    await attackerHome.totalAmount.waitFor();
    expect(await storedCookie(attacker.page, 'userId')).toBe(attackerUserId);
    expect(attacker.page.url()).not.toContain('code=');

    expect(attacker.errors).toEqual([]);
    expect(victim.errors).toEqual([]);
    await attacker.page.context().close();
    await victim.page.context().close();
  });
});
