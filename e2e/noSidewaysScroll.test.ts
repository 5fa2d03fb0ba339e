import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_COOKIE, LANGUAGES } from '../contract/languages.ts';
import { callApi } from './support/api.ts';
import { operatorAndInvitee } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

/** Every screen of the app (web/src/app/routes.tsx); the operator's only for the operator. */
const HOLDER_SCREENS = ['home', 'center', 'wallet', 'my', 'rebate', 'thirtydays', 'activity', 'income', 'rates', 'proof', 'statement', 'notifications', 'sessions'];
const PHONE = { width: 320, height: 568 };

/**
 * What sticks out on the right of the screen on view: the page's width beyond the viewport, and
 * the first few elements whose right edge passes it (to say where to look).
 */
function overflow(page: Page): Promise<{ width: number; culprits: string[] }> {
  return page.evaluate(`(() => {
    const limit = document.documentElement.clientWidth;
    const culprits = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.right <= limit + 0.5) continue;
      if (el.closest('[aria-hidden=true], .adm-popup, .adm-mask')) continue;
      culprits.push(el.tagName.toLowerCase() + '.' + String(el.className).split(' ')[0] + ' ' + Math.round(r.right) + 'px');
      if (culprits.length === 3) break;
    }
    return { width: document.documentElement.scrollWidth, culprits };
  })()`);
}

/** Opens a screen and waits until what it loads is shown (no placeholder left). */
async function openScreen(page: Page, baseUrl: string, screen: string): Promise<void> {
  await page.goto(`${baseUrl}/#/${screen}`);
  await page.waitForLoadState('networkidle');
  await page.locator('main.page:visible h1, main.page:visible .page-header__title').first().waitFor();
  await page.locator('main.page:visible .pending').first().waitFor({ state: 'detached' }).catch(() => undefined);
}

/**
 * No screen scrolls sideways at 320 px in any of the ten languages (issue 44): every screen, the
 * Earn centre's three products and the operator console, with a holder who has orders, income,
 * records and notices, so that lists and figures are filled.
 */
describe('no sideways scroll at 320 px, every screen, ten languages', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ OPERATOR_USER_IDS: '1', CLOCK_START: '2026-11-20T08:00:00Z' }, (run) => ({ server, browser } = run));
  const api = <T>(path: string, token: string, body?: object) => callApi<T>(server.baseUrl, path, token, body);

  it('fits every screen in 320 px', async () => {
    const { operator, olgaToken, holder, token } = await operatorAndInvitee(browser, server.baseUrl);
    await api('/api/transfer-in', token, { asset: 'AIC', amount: '9876.54' });
    for (const [product, amount] of [['current', '1234.5'], ['fixed30', '2345.67'], ['reinvest360', '3456.78']] as const) {
      await api('/api/product/buy', token, { product, amount });
    }
    await api('/api/operator/clock/advance', olgaToken, { days: 2 });

    const found: Record<string, string> = {};
    const check = async (page: Page, where: string) => {
      const { width, culprits } = await overflow(page);
      if (width > PHONE.width) found[where] = `${width}px: ${culprits.join(', ')}`;
    };
    for (const { page } of [holder, operator]) await page.setViewportSize(PHONE);
    for (const language of LANGUAGES) {
      for (const { page } of [holder, operator]) {
        await page.context().addCookies([{ name: LANGUAGE_COOKIE, value: language.key, url: server.baseUrl }]);
        // The language is read as the app starts.
        await page.reload();
        await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(language.htmlLang);
      }
      for (const screen of HOLDER_SCREENS) {
        await openScreen(holder.page, server.baseUrl, screen);
        await check(holder.page, `${language.key} ${screen}`);
      }
      // The centre's other two products (the first is open on arrival).
      for (const tab of [1, 2]) {
        await openScreen(holder.page, server.baseUrl, 'center');
        await holder.page.locator('main.page:visible [role=tab]').nth(tab).click();
        await check(holder.page, `${language.key} center tab ${tab + 1}`);
      }
      await openScreen(operator.page, server.baseUrl, 'operator');
      await check(operator.page, `${language.key} operator`);
    }
    expect(found).toEqual({});
    expect(holder.errors).toEqual([]);
    expect(operator.errors).toEqual([]);
  });
});
