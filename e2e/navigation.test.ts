import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ExchangeSignInPage } from './pages/ExchangeSignInPage.ts';
import { TabBar } from './pages/TabBar.ts';
import { phonePage } from './support/browser.ts';
import { storedCookie } from './support/flows.ts';
import { journey } from './support/journey.ts';
import { type Messages, messagesOf, PHONE_LANGUAGES, PHONE_SIZES, signInSpeaking } from './support/messages.ts';
import type { RunningServer } from './support/server.ts';

/** Apple's and Material's minimum for something a finger taps, in CSS pixels. */
const MIN = 44;

type Box = { x: number; y: number; width: number; height: number };

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not on view');
  return found;
}

/** The four tabs in order, with the path and the header title each opens. */
const tabsOf = (m: Messages) => [
  { label: m.tabs.earn, path: '#/center', title: m.title.center },
  { label: m.tabs.wallet, path: '#/wallet', title: m.title.wallet },
  { label: m.tabs.my, path: '#/my', title: m.title.my },
  { label: m.tabs.home, path: '#/home', title: null },
];

/** What makes the page scroll sideways, and every tab label that overflows its tab. */
const overflows = (page: Page, width: number) =>
  page.evaluate((width) => {
    // Against the phone's width (on a phone, a page wider than the screen widens the viewport):
    // the innermost elements that reach past it, named by tag and class.
    const sideways = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5 && el.getBoundingClientRect().width > 0)
      .filter((el) => ![...el.children].some((child) => child.getBoundingClientRect().right > width + 0.5))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').slice(0, 20)}"`);
    const labels = [...document.querySelectorAll('.tab-bar__tab')]
      .filter((tab) => {
        const label = tab.querySelector('.tab-bar__label');
        return !label || label.scrollWidth > tab.clientWidth || label.getBoundingClientRect().right > tab.getBoundingClientRect().right + 0.5;
      })
      .map((tab) => tab.textContent);
    return { sideways, labels };
  }, width);

/** At the end of the page, the bottom of `last` is above the tab bar: nothing hides under it. */
async function clearOfTabBar(page: Page, last: Locator): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const bar = await box(new TabBar(page).bar);
  const end = await box(last);
  expect(end.y + end.height).toBeLessThanOrEqual(bar.y + 0.5);
}

/**
 * Issue 44, point 6, on a phone: a tab bar moves between Home, Earn, Wallet and My and marks
 * the current one; Back goes to the screen before (rate history opened from Earn goes back to
 * Earn), and is a 44 px target; Log out is under My only. In English, Indonesian and Hindi, at
 * 390x844 and at 320x568.
 */
describe('navigation as a phone app', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({}, (run) => ({ server, browser } = run));

  it.each(PHONE_LANGUAGES)('tab bar, Back and Log out in $file', async ({ key, file }) => {
    const m = messagesOf(file);
    const { page, errors } = await phonePage(browser, 'en-US');
    await signInSpeaking(page, server.baseUrl, `Tab ${file}`, key);
    const tabs = new TabBar(page);
    const heading = (title: string) => page.getByRole('heading', { level: 1, name: title, exact: true });
    const back = page.getByRole('button', { name: m.common.back, exact: true });
    const logout = page.getByRole('button', { name: m.common.logout, exact: true });

    // Home: the tab bar with Home marked, and no Log out here any more.
    await expect.poll(() => tabs.current.textContent()).toBe(m.tabs.home);
    expect(await logout.count()).toBe(0);

    for (const size of PHONE_SIZES) {
      await page.setViewportSize(size);
      for (const tab of tabsOf(m)) {
        await tabs.open(tab.label);
        await page.waitForURL((url) => url.hash === tab.path);
        if (tab.title) await heading(tab.title).waitFor();
        // The current tab, and only it, is marked; a tab root has no Back.
        await expect.poll(() => tabs.current.textContent()).toBe(tab.label);
        expect(await tabs.current.count()).toBe(1);
        if (tab.title) expect(await back.count()).toBe(0);
        for (const each of await tabs.bar.getByRole('link').all()) {
          const target = await box(each);
          expect(target.width, `${await each.textContent()} at ${size.width}`).toBeGreaterThanOrEqual(MIN);
          expect(target.height, `${await each.textContent()} at ${size.width}`).toBeGreaterThanOrEqual(MIN);
        }
        expect(await overflows(page, size.width), `${tab.path} at ${size.width}`).toEqual({ sideways: [], labels: [] });
        // The bar sits on the bottom edge of the screen.
        const bar = await box(tabs.bar);
        expect(Math.round(bar.y + bar.height), `${tab.path} at ${size.width}`).toBe(size.height);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: `/tmp/nav-${file}-${size.width}-${tab.path.slice(2)}.png` });
      }
    }

    // Log out is at the bottom of My (and not on the wallet), clear of the tab bar.
    await tabs.open(m.tabs.wallet);
    await heading(m.title.wallet).waitFor();
    expect(await logout.count()).toBe(0);
    await tabs.open(m.tabs.my);
    await heading(m.title.my).waitFor();
    await clearOfTabBar(page, logout);

    // Back from rate history, opened from Earn, returns to Earn (not home); its target is 44 px.
    await tabs.open(m.tabs.earn);
    await heading(m.title.center).waitFor();
    await page.getByRole('link', { name: m.rates.entry }).first().click();
    await heading(m.title.rates).waitFor();
    expect(await tabs.bar.count()).toBe(0);
    const target = await box(back);
    expect(target.width).toBeGreaterThanOrEqual(MIN);
    expect(target.height).toBeGreaterThanOrEqual(MIN);
    await page.screenshot({ path: `/tmp/nav-${file}-320-rates.png` });
    await back.click();
    await heading(m.title.center).waitFor();
    expect(new URL(page.url()).hash).toBe('#/center');

    // Rate history opened straight from a link (no screen before it in the app): Back goes home.
    const linked = await page.context().newPage();
    await linked.goto(`${server.baseUrl}/#/rates`);
    await linked.getByRole('heading', { level: 1, name: m.title.rates, exact: true }).waitFor();
    await linked.getByRole('button', { name: m.common.back, exact: true }).click();
    await linked.waitForURL((url) => url.hash === '#/home');
    await linked.close();

    // Log out under My works: its message, the session gone, and back to the exchange.
    await tabs.open(m.tabs.my);
    await logout.click();
    await page.getByText(m.common.logoutSuccess).waitFor();
    expect(await storedCookie(page, 'token')).toBeUndefined();
    await new ExchangeSignInPage(page).waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
