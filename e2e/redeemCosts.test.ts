import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EarnPage } from './pages/EarnPage.ts';
import { callApi } from './support/api.ts';
import { operatorAndInvitee } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

const SHOTS = '/tmp/redeem-costs';

/**
 * The confirm's two costs in each language the journey reads them in (the locale files' own
 * words, figures as each writes them): the current cycle's 3 AIC of income (the demo clock
 * stands still, so the cycle has a whole day left, less the seconds the phone has shown it), and the holding
 * falling from 6,000 to 3,000 AIC, which takes the unlock share from 30% to 0%.
 */
const LANGUAGES = [
  {
    key: 'en',
    cycle: /^Redeeming now gives up this cycle's income: 3\.00 AIC \(the cycle ends in (1d 00:00:00|23:5\d:\d\d)\)\.$/,
    tier: 'Your holding in orders falls from 6,000.00 to 3,000.00 AIC: the share of network income it unlocks drops from 30% to 0%.',
  },
  {
    key: 'Indonesia',
    cycle: /^Menebus sekarang melepaskan penghasilan siklus ini: 3,00 AIC \(siklus berakhir dalam (1 hari 00:00:00|23:5\d:\d\d)\)\.$/,
    tier: 'Kepemilikan Anda di pesanan turun dari 6.000,00 menjadi 3.000,00 AIC: bagian penghasilan jaringan yang terbuka turun dari 30% menjadi 0%.',
  },
  {
    key: 'Hindi',
    cycle: /^अभी रिडीम करने पर इस चक्र की आय छूट जाएगी: 3\.00 AIC \(चक्र (1 दिन 00:00:00|23:5\d:\d\d) में समाप्त होगा\)।$/,
    tier: 'ऑर्डर में आपकी होल्डिंग 6,000.00 से घटकर 3,000.00 AIC हो जाएगी: अनलॉक होने वाली नेटवर्क आय का हिस्सा 30% से घटकर 0% हो जाएगा।',
  },
] as const;
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 320, height: 568 },
] as const;

const text = async (locator: { textContent: () => Promise<string | null> }) => (await locator.textContent())?.trim() ?? '';

describe('a redemption says what it costs before it happens, in three languages, at 390x844 and 320x568', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ OPERATOR_USER_IDS: '1', CLOCK_START: '2026-11-20T08:00:00Z' }, (run) => ({ server, browser } = run));
  const api = <T>(path: string, token: string, body?: object) => callApi<T>(server.baseUrl, path, token, body);

  it('shows the cycle income given up and the unlock tier lost, and redeems only once confirmed', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const { holder, token } = await operatorAndInvitee(browser, server.baseUrl);
    const { page, errors } = holder;
    // 6,000 AIC in orders: the 30% unlock tier (5,000). Redeeming the current order's 3,000
    // leaves 3,000, under every tier.
    await api('/api/recharge', token, { asset: 'AIC', amount: '6000' });
    await api('/api/product/buy', token, { product: 'current', amount: '3000' });
    await api('/api/product/buy', token, { product: 'fixed30', amount: '3000' });

    // The phone in front: a page behind another runs its animations at a crawl.
    await page.bringToFront();
    const earn = new EarnPage(page, server.baseUrl);
    // Only the current order can be redeemed now: the 30-day one runs for 30 days.
    const redeem = page.locator('.order__actions .adm-button');
    const dialog = page.getByRole('dialog');
    for (const language of LANGUAGES) {
      await page.context().addCookies([{ name: 'aic_earn_lang', value: language.key, url: server.baseUrl }]);
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await page.goto(`${server.baseUrl}/#/center`);
        await page.reload();
        await redeem.click();
        await dialog.getByTestId('redeem-tier-drop').waitFor();
        expect(await text(dialog.getByTestId('redeem-cycle-cost'))).toMatch(language.cycle);
        expect(await text(dialog.getByTestId('redeem-tier-drop'))).toBe(language.tier);
        const box = await dialog.getByTestId('redeem-tier-drop').boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= viewport.width, `${language.key} at ${viewport.width}`).toBe(true);
        // The dialog fades in: the picture is taken once it is whole.
        await expect.poll(() => dialog.locator('.adm-center-popup-body').evaluate((el) => getComputedStyle(el.parentElement ?? el).opacity)).toBe('1');
        await page.screenshot({ path: `${SHOTS}/redeem-confirm-${language.key}-${viewport.width}.png` });
        // Cancelled: nothing moves.
        await dialog.locator('.adm-dialog-button').first().click();
        await dialog.waitFor({ state: 'hidden' });
      }
    }
    const orders = await api<{ items: { product: string; status: string }[] }>('/api/user/my-product-list', token);
    expect(orders.items.map((o) => o.status).sort()).toEqual(['confirming', 'in_progress']);

    // In English, confirmed: the order is redeemed and the tier is gone.
    await page.context().addCookies([{ name: 'aic_earn_lang', value: 'en', url: server.baseUrl }]);
    await page.goto(`${server.baseUrl}/#/center`);
    await page.reload();
    await redeem.click();
    await earn.confirm();
    await expect.poll(() => text(earn.orderStatus(earn.order('Current')))).toBe('Redeemed');
    const network = await api<{ held: string; unlockPercent: string }>('/api/user/zero-profit', token);
    expect(network).toMatchObject({ held: '3000', unlockPercent: '0' });
    expect(errors).toEqual([]);
  });
});
