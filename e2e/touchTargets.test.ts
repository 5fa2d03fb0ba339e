import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { phonePage } from './support/browser.ts';
import { signInThroughExchange } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

const SCREENS = ['home', 'center', 'wallet', 'my', 'rebate', 'thirtydays', 'income', 'activity', 'statement', 'proof'];
/** Apple's and Material's minimum for something a finger taps, in CSS pixels. */
const MIN = 44;

/** Links, buttons, tabs and fields of the screen on view that are smaller than MIN either way. */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const view = [...document.querySelectorAll('main.page')].find((main) => main.getBoundingClientRect().height > 0);
    if (!view) return ['no screen on view'];
    const targets = view.querySelectorAll('a, button, [role=button], [role=tab], .adm-tabs-tab, input, select, textarea');
    const small = [];
    for (const el of targets) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.width < ${MIN} || r.height < ${MIN}) {
        const name = (el.getAttribute('aria-label') || el.textContent || el.getAttribute('placeholder') || '').trim().slice(0, 24);
        small.push(el.tagName.toLowerCase() + ' "' + name + '" ' + Math.round(r.width) + 'x' + Math.round(r.height));
      }
    }
    return small;
  })()`);
}

/** Every screen, signed in, at 390x844: nothing to tap is smaller than 44 x 44 px. */
describe('touch targets of 44 px', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({}, (run) => ({ server, browser } = run));

  it('on every signed-in screen, and the tabs of short words in Chinese and Hindi', async () => {
    const { page, errors } = await phonePage(browser, 'en-US');
    await signInThroughExchange(page, server.baseUrl, { create: 'Thumb Thea' });
    const found: Record<string, string[]> = {};
    for (const screen of SCREENS) {
      await page.goto(`${server.baseUrl}/#/${screen}`);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      const small = await smallTargets(page);
      if (small.length) found[screen] = small;
    }
    // Short words: the product tabs in Chinese and Hindi ("活期" is two characters wide).
    for (const language of ['zh-cn', 'Hindi']) {
      await page.context().addCookies([{ name: 'aic_earn_lang', value: language, url: server.baseUrl }]);
      for (const screen of ['center', 'income']) {
        await page.goto(`${server.baseUrl}/#/${screen}`);
        await page.reload();
        await page.waitForLoadState('networkidle');
        await page.waitForTimeout(300);
        const small = await smallTargets(page);
        if (small.length) found[`${screen} in ${language}`] = small;
      }
    }
    expect(found).toEqual({});
    expect(errors).toEqual([]);
  });
});
