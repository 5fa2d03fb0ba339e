import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MyPage } from './pages/MyPage.ts';
import { TabBar } from './pages/TabBar.ts';
import { phonePage, untilControlled } from './support/browser.ts';
import { signInThroughExchange, storedCookie } from './support/flows.ts';
import { journey } from './support/journey.ts';
import { messagesOf, PHONE_LANGUAGES, PHONE_SIZES, patternOf, signInSpeaking } from './support/messages.ts';
import { savedFigures, waitForSaved } from './support/savedFigures.ts';
import type { RunningServer } from './support/server.ts';

/** How often an open screen asks for the unread count (web/src/api/unread.ts): the app's one poll. */
const UNREAD_REFRESH_MS = 60_000;

/** The main screens: the tab that opens each, its header title, and one figure it shows. */
const screensOf = (file: string) => {
  const m = messagesOf(file);
  return [
    { tab: m.tabs.earn, hash: '#/center', title: m.title.center, figure: 'rate-current' },
    { tab: m.tabs.wallet, hash: '#/wallet', title: m.title.wallet, figure: 'wallet-total' },
    { tab: m.tabs.my, hash: '#/my', title: m.title.my, figure: 'uid' },
    { tab: m.tabs.home, hash: '#/home', title: null, figure: 'total-amount' },
  ];
};

/** The queries those screens' figures come from (with My's network income), as saved (keys as JSON). */
const SCREEN_QUERIES = ['["earn","productInfo"]', '["wallet","asset"]', '["userInfo"]', '["team","zeroProfit"]', '["home"]'];

/** The note of the screen on view (kept screens stay in the page, hidden, with their own). */
const note = (page: Page) => page.getByTestId('saved-figures').filter({ visible: true });

/** Console errors from now on. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

/**
 * Issue 44, point 8: offline, every main screen keeps its header and tab bar and shows the last
 * figures the holder saw, saved on the device, with the time they are from; the buttons that
 * move money are off and say why; nothing polls into console errors. Saved figures are the
 * holder's own: a second holder on the same browser never sees the first one's.
 */
describe('the last figures offline', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({}, (run) => ({ server, browser } = run));

  it.each(PHONE_LANGUAGES)('every main screen shows its last figures and their time in $file', async ({ key, file }) => {
    const m = messagesOf(file);
    const { page, errors } = await phonePage(browser, 'en-US');
    await signInSpeaking(page, server.baseUrl, `Figures ${file}`, key);
    const tabs = new TabBar(page);
    const screens = screensOf(file);

    // Online: each screen once, so its figures are in the cache and saved on the device.
    const seen = new Map<string, string>();
    for (const screen of screens) {
      await tabs.open(screen.tab);
      const figure = page.getByTestId(screen.figure);
      await figure.waitFor();
      seen.set(screen.figure, (await figure.textContent()) ?? '');
    }
    await waitForSaved(page, SCREEN_QUERIES);
    expect((await savedFigures(page))?.buster).toBe(await storedCookie(page, 'userId'));
    // The service worker serves the app without a connection once it controls the page.
    await untilControlled(page);

    // Offline, the app starts again from what the device holds; the clock is the test's.
    await page.context().setOffline(true);
    const offlineErrors = consoleErrors(page);
    const asked: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/api/') || path === '/healthz') asked.push(path);
    });
    await page.clock.install();
    await page.reload();
    await page.getByText(m.offline.banner).waitFor();

    for (const [index, size] of PHONE_SIZES.entries()) {
      await page.setViewportSize(size);
      for (const screen of index === 0 ? screens : screens.slice(1, 2)) {
        await tabs.open(screen.tab);
        await page.waitForURL((url) => url.hash === screen.hash);
        // The hash changes on the tap; the screen (and its tab's mark) once its code is loaded,
        // from the service worker's cache offline.
        await expect.poll(() => tabs.current.textContent()).toBe(screen.tab);
        if (screen.title) await page.getByRole('heading', { level: 1, name: screen.title, exact: true }).waitFor();
        // The figure the holder last saw, and the time it is from.
        await expect.poll(() => page.getByTestId(screen.figure).textContent()).toBe(seen.get(screen.figure));
        await expect.poll(() => note(page).textContent()).toMatch(patternOf(m.offline.figuresFrom));
        await page.screenshot({ path: `/tmp/nav-offline-${file}-${size.width}-${screen.hash.slice(2)}.png` });
      }
    }

    // On the wallet: the four moves are off, and say why.
    await tabs.open(m.tabs.wallet);
    const moves = page.locator('.wallet-action');
    expect(await moves.count()).toBe(4);
    for (const move of await moves.all()) expect(await move.isDisabled()).toBe(true);
    await page.getByText(m.offline.noMoves).filter({ visible: true }).waitFor();
    // On My, the claims (earnings, network income) say so too.
    await tabs.open(m.tabs.my);
    await expect.poll(() => page.getByText(m.offline.noMoves).filter({ visible: true }).count()).toBe(2);

    // Three of the app's polls go by: none asks the network, so none logs an error.
    await page.clock.runFor(3 * UNREAD_REFRESH_MS);
    await tabs.open(m.tabs.home);
    await page.getByTestId('total-amount').waitFor();
    await page.clock.runFor(3 * UNREAD_REFRESH_MS);
    expect(asked).toEqual([]);
    expect(offlineErrors).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("never shows a second holder on the same browser the first one's figures", async () => {
    const { page, errors } = await phonePage(browser, 'en-US');
    const first = 'Figures Frida';
    await signInThroughExchange(page, server.baseUrl, { create: first });
    const my = new MyPage(page, server.baseUrl);
    await my.goto();
    await my.profile(first).waitFor();
    await waitForSaved(page, ['["userInfo"]', '["home"]']);
    expect(JSON.stringify(await savedFigures(page))).toContain(first);

    // Her session ends without a logout (the cookies are gone): the next holder signs in here.
    await page.goto(`${server.baseUrl}/#/home`);
    await page.context().clearCookies();
    const second = 'Figures Gus';
    await signInThroughExchange(page, server.baseUrl, { create: second });
    await waitForSaved(page, ['["home"]']);
    const saved = await savedFigures(page);
    expect(saved?.buster).toBe(await storedCookie(page, 'userId'));
    expect(JSON.stringify(saved)).not.toContain(first);

    // Offline, My has nothing of hers: only his figures, or that there are none saved yet.
    await page.context().setOffline(true);
    await page.reload();
    await new TabBar(page).open('My');
    await my.heading.waitFor();
    await note(page).waitFor();
    expect(await page.getByText(first).count()).toBe(0);
    await page.screenshot({ path: '/tmp/nav-offline-second-holder-my.png' });

    // His logout takes his saved figures off the device.
    await page.context().setOffline(false);
    await page.reload();
    await my.profile(second).waitFor();
    await my.logoutButton.click();
    await page.getByText('Logged out successfully, re-authorizing').waitFor();
    expect(await savedFigures(page)).toBeNull();
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
