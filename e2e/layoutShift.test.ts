import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { phonePage } from './support/browser.ts';
import { signInThroughExchange } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

const SCREENS = ['home', 'center', 'wallet'];
/** "Good" cumulative layout shift, as Lighthouse and Core Web Vitals count it. */
const GOOD_CLS = 0.05;

/**
 * Opens a screen afresh (a new load, as from a bookmark) on a slow network, so its placeholders
 * are on screen before the code and the answers arrive, and sums the layout shifts of its first
 * seconds: what moved, by how much.
 */
async function shiftsOf(page: Page, url: string): Promise<{ total: number; moved: string[] }> {
  await page.goto('about:blank');
  await page.goto(url);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  return page.evaluate(`(() => {
    const entries = window.__shifts;
    // Every shift counts: nothing is clicked or typed while a screen loads here.
    const total = entries.reduce((sum, e) => sum + e.value, 0);
    const moved = entries.flatMap((e) => e.sources.map((s) =>
      (s.node && s.node.className ? String(s.node.className).slice(0, 50) : '?') + ' ' +
      Math.round(s.previousRect.y) + '->' + Math.round(s.currentRect.y) + ' (' + e.value.toFixed(3) + ')'));
    return { total, moved };
  })()`);
}

/** The signed-in screens keep their size while their figures load (placeholders of the final size). */
describe('no layout shift while home, centre and wallet load', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({}, (run) => ({ server, browser } = run));

  it('shifts less than 0.05 on each, on a slow network', async () => {
    const { page, errors } = await phonePage(browser, 'en-US');
    // Layout shifts are only reported to an observer (not kept in the performance timeline):
    // one in every document, from its start.
    await page.addInitScript(`
      window.__shifts = [];
      new PerformanceObserver((list) => window.__shifts.push(...list.getEntries()))
        .observe({ type: 'layout-shift', buffered: true });
    `);
    await signInThroughExchange(page, server.baseUrl, { create: 'Steady Layout' });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    // Every request waits 300 ms: what the page shows first is what it shows before its answers.
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 300, downloadThroughput: -1, uploadThroughput: -1 });
    const found: Record<string, { total: number; moved: string[] }> = {};
    for (const screen of SCREENS) found[screen] = await shiftsOf(page, `${server.baseUrl}/#/${screen}`);
    for (const screen of SCREENS) expect(found[screen]?.total, `${screen}: ${found[screen]?.moved.join(', ')}`).toBeLessThan(GOOD_CLS);
    expect(errors).toEqual([]);
  });
});
