import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CenterPage } from './pages/CenterPage.ts';
import { TabBar } from './pages/TabBar.ts';
import { phonePage } from './support/browser.ts';
import { signInThroughExchange } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

describe('walking skeleton journey at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({}, (run) => ({ server, browser } = run));

  it('switches language, keeps view state across routes, and restores the last route', async () => {
    const { page, errors } = await phonePage(browser, 'zh-CN');
    const home = await signInThroughExchange(page, server.baseUrl, { pick: 'Alice' });

    // Browser language zh-CN: Chinese texts and title.
    await expect.poll(() => page.title()).toBe('首页 - AIC 理财');
    expect(await home.headline.textContent()).toBe('让您的 AIC 持续增值');
    await expect.poll(() => home.totalAmount.textContent()).toContain('0.00');

    // The side panel is 34% wide and highlights the current language.
    await home.languageButton('简体中文').click();
    const panelBox = await page.locator('.lang-panel').boundingBox();
    expect(Math.round(panelBox?.width ?? 0)).toBe(Math.round(390 * 0.34));
    expect(await home.currentLanguageInPanel().textContent()).toBe('简体中文');
    await home.languagePanel.getByRole('button', { name: 'English', exact: true }).click();
    await home.languageButton('English').waitFor();
    await expect.poll(() => page.title()).toBe('Home - AIC Earn');
    expect(await home.headline.textContent()).toBe('Earn on your AIC');

    // To the earn-coins centre, pick a tab, go home and back: the tab is still chosen.
    await home.mainButton('Start earning').click();
    const center = new CenterPage(page);
    await center.tab('30 days').click();
    await expect.poll(() => page.title()).toBe('Earn coins - AIC Earn');
    await new TabBar(page).open('Home');
    await home.headline.waitFor();
    expect(page.url()).toContain('#/home');
    await home.mainButton('Start earning').click();
    await expect.poll(() => center.selectedTab()).toBe('30 days');

    // A reload keeps the route and the chosen language; a fresh start restores the last route.
    await page.reload();
    await center.tab('Current').waitFor();
    expect(page.url()).toContain('#/center');
    await page.goto(`${server.baseUrl}/`);
    await center.tab('Current').waitFor();
    expect(page.url()).toContain('#/center');
    expect(await page.evaluate(() => sessionStorage.getItem('previousRoute'))).toBe('/center');

    expect(errors).toEqual([]);
  });
});
