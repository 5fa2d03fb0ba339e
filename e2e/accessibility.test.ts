import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { phonePage } from './support/browser.ts';
import { signInThroughExchange } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

const AXE = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');
const SCREENS = ['home', 'center', 'wallet', 'my', 'rebate', 'thirtydays', 'income', 'activity'];

/** axe-core's serious and critical violations on the page as it stands: rule, count, first nodes. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated over the DevTools protocol, which the app's CSP (no inline scripts) does not govern.
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    type Violation = { id: string; impact: string | null; nodes: { html: string }[] };
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: Violation[] }> } }).axe;
    const { violations } = await axe.run(document);
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 2).map((n) => n.html.slice(0, 120)).join(' | ')}`);
  });
}

/** Every signed-in screen, in Chinese and in English: no serious or critical axe-core violation. */
describe('accessibility of every screen, signed in, at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({}, (run) => ({ server, browser } = run));

  it.each([
    ['zh-CN', { pick: 'Alice' }],
    ['en-US', { create: 'Ada Axe' }],
  ] as const)('%s: no serious or critical violations', async (locale, account) => {
    const { page, errors } = await phonePage(browser, locale);
    await signInThroughExchange(page, server.baseUrl, account);
    const found: Record<string, string[]> = {};
    for (const screen of SCREENS) {
      await page.goto(`${server.baseUrl}/#/${screen}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
      const violations = await seriousViolations(page);
      if (violations.length) found[screen] = violations;
    }
    expect(found).toEqual({});
    expect(errors).toEqual([]);
  });
  it('finds nothing serious in the placeholders either, while the figures load', async () => {
    const { page, errors } = await phonePage(browser, 'en-US');
    await signInThroughExchange(page, server.baseUrl, { create: 'Patient Pat' });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    // Answers take a second: the screens are read while their figures are still pending.
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 1000, downloadThroughput: -1, uploadThroughput: -1 });
    const found: Record<string, string[]> = {};
    for (const screen of ['home', 'wallet']) {
      await page.goto('about:blank');
      await page.goto(`${server.baseUrl}/#/${screen}`);
      await page.locator('.pending').first().waitFor();
      const violations = await seriousViolations(page);
      if (violations.length) found[screen] = violations;
    }
    expect(found).toEqual({});
    expect(errors).toEqual([]);
  });

  it('keeps keyboard focus inside the language panel and gives it back to its button', async () => {
    const { page, errors } = await phonePage(browser, 'en-US');
    await signInThroughExchange(page, server.baseUrl, { create: 'Keyboard Kim' });
    await page.goto(`${server.baseUrl}/#/home`);
    const button = page.locator('.lang-button');
    await button.focus();
    await page.keyboard.press('Enter');
    await page.locator('.lang-panel').waitFor();
    const insidePanel = () => page.evaluate(() => document.querySelector('.lang-panel')?.contains(document.activeElement) ?? false);
    await expect.poll(insidePanel).toBe(true);
    // Round the ten languages and more, both ways: focus never leaves the panel.
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect(await insidePanel()).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await insidePanel()).toBe(true);
    await page.keyboard.press('Escape');
    await page.locator('.lang-panel').waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.classList.contains('lang-button'))).toBe(true);
    expect(errors).toEqual([]);
  });
});
