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
 * The redeem form and its confirm's two costs in each language the journey reads them in (the locale files' own
 * words, figures as each writes them): the current cycle's 3 AIC of income (the demo clock
 * stands still, so the cycle has a whole day left, less the seconds the phone has shown it), and the holding
 * falling from 6,000 to 3,000 AIC, which takes the unlock share from 30% to 0%. A part of 1,000
 * gives up 1 AIC and keeps the tier (5,000 held).
 */
const LANGUAGES = [
  {
    key: 'en',
    cycle: (income: string) => new RegExp(`^Redeeming now gives up this cycle's income: ${income} AIC \\(the cycle ends in (1d 00:00:00|23:5\\d:\\d\\d)\\)\\.$`),
    tier: 'Your holding in orders falls from 6,000.00 to 3,000.00 AIC: the share of network income it unlocks drops from 30% to 0%.',
    holds: 'This order holds 3,000.00 AIC. Redeem all of it, or a part of at least 1 AIC that leaves nothing or at least 1 AIC.',
    remainder: 'Leave nothing or at least the minimum in the order',
    decimal: '.',
  },
  {
    key: 'Indonesia',
    cycle: (income: string) => new RegExp(`^Menebus sekarang melepaskan penghasilan siklus ini: ${income} AIC \\(siklus berakhir dalam (1 hari 00:00:00|23:5\\d:\\d\\d)\\)\\.$`),
    tier: 'Kepemilikan Anda di pesanan turun dari 6.000,00 menjadi 3.000,00 AIC: bagian penghasilan jaringan yang terbuka turun dari 30% menjadi 0%.',
    holds: 'Pesanan ini berisi 3.000,00 AIC. Tebus semuanya, atau sebagian minimal 1 AIC yang menyisakan nol atau minimal 1 AIC.',
    remainder: 'Sisakan nol atau setidaknya jumlah minimum di pesanan',
    decimal: ',',
  },
  {
    key: 'Hindi',
    cycle: (income: string) => new RegExp(`^अभी रिडीम करने पर इस चक्र की आय छूट जाएगी: ${income} AIC \\(चक्र (1 दिन 00:00:00|23:5\\d:\\d\\d) में समाप्त होगा\\)।$`),
    tier: 'ऑर्डर में आपकी होल्डिंग 6,000.00 से घटकर 3,000.00 AIC हो जाएगी: अनलॉक होने वाली नेटवर्क आय का हिस्सा 30% से घटकर 0% हो जाएगा।',
    holds: 'इस ऑर्डर में 3,000.00 AIC है। पूरी राशि रिडीम करें, या कम से कम 1 AIC का हिस्सा, जिससे शून्य या कम से कम 1 AIC बचे।',
    remainder: 'ऑर्डर में शून्य या कम से कम न्यूनतम राशि छोड़ें',
    decimal: '.',
  },
] as const;
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 320, height: 568 },
] as const;

const text = async (locator: { textContent: () => Promise<string | null> }) => (await locator.textContent())?.trim() ?? '';

describe('a redemption, all or part, says what it costs before it happens, in three languages, at 390x844 and 320x568', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ OPERATOR_USER_IDS: '1', CLOCK_START: '2026-11-20T08:00:00Z' }, (run) => ({ server, browser } = run));
  const api = <T>(path: string, token: string, body?: object) => callApi<T>(server.baseUrl, path, token, body);

  it('redeems all or part, shows the cycle income given up and the unlock tier lost, and moves money only once confirmed', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const { holder, token } = await operatorAndInvitee(browser, server.baseUrl);
    const { page, errors } = holder;
    // 6,000 AIC in orders: the 30% unlock tier (5,000). Redeeming the current order's 3,000
    // leaves 3,000, under every tier; a part of 1,000 leaves 5,000.
    await api('/api/recharge', token, { asset: 'AIC', amount: '6000' });
    await api('/api/product/buy', token, { product: 'current', amount: '3000' });
    await api('/api/product/buy', token, { product: 'fixed30', amount: '3000' });

    // The phone in front: a page behind another runs its animations at a crawl.
    await page.bringToFront();
    const earn = new EarnPage(page, server.baseUrl);
    // Only the current order can be redeemed now: the 30-day one runs for 30 days.
    const redeem = page.locator('.order__actions .adm-button');
    const sheet = page.locator('.sheet__content');
    const amount = sheet.getByRole('textbox');
    const dialog = page.locator('.adm-dialog');
    const cancelDialog = async () => {
      await dialog.locator('.adm-dialog-button').first().click();
      await dialog.waitFor({ state: 'hidden' });
    };
    for (const language of LANGUAGES) {
      await page.context().addCookies([{ name: 'aic_earn_lang', value: language.key, url: server.baseUrl }]);
      for (const viewport of VIEWPORTS) {
        const where = `${language.key} at ${viewport.width}`;
        await page.setViewportSize(viewport);
        await page.goto(`${server.baseUrl}/#/center`);
        await page.reload();
        await redeem.click();
        // The form: the whole holding to begin with, and the rule.
        await expect.poll(() => amount.inputValue()).toBe('3000');
        expect(await text(sheet.getByTestId('redeem-holds'))).toBe(language.holds);
        // A rest under the minimum is refused in the form: no confirm opens.
        await amount.fill('2999.5');
        await sheet.locator('.adm-button-primary').click();
        await sheet.getByText(language.remainder).waitFor();
        expect(await dialog.count()).toBe(0);
        if (viewport.width === 320) await page.screenshot({ path: `${SHOTS}/redeem-form-${language.key}-320.png` });

        // All of it: the cycle's 3 AIC and the tier lost.
        await amount.fill('3000');
        await sheet.locator('.adm-button-primary').click();
        await dialog.getByTestId('redeem-tier-drop').waitFor();
        expect(await text(dialog.getByTestId('redeem-cycle-cost')), where).toMatch(language.cycle(language.decimal === ',' ? '3,00' : '3\\.00'));
        expect(await text(dialog.getByTestId('redeem-tier-drop')), where).toBe(language.tier);
        const box = await dialog.getByTestId('redeem-tier-drop').boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= viewport.width, where).toBe(true);
        // The dialog fades in: the picture is taken once it is whole.
        await expect.poll(() => dialog.locator('.adm-center-popup-body').evaluate((el) => getComputedStyle(el.parentElement ?? el).opacity)).toBe('1');
        await page.screenshot({ path: `${SHOTS}/redeem-confirm-${language.key}-${viewport.width}.png` });
        await cancelDialog();

        // A part of 1,000: its share of the cycle, and the tier stays.
        await amount.fill('1000');
        await sheet.locator('.adm-button-primary').click();
        await dialog.getByTestId('redeem-cycle-cost').waitFor();
        expect(await text(dialog.getByTestId('redeem-cycle-cost')), where).toMatch(language.cycle(language.decimal === ',' ? '1,00' : '1\\.00'));
        expect(await dialog.getByTestId('redeem-tier-drop').count(), where).toBe(0);
        if (viewport.width === 320) {
          await expect.poll(() => dialog.locator('.adm-center-popup-body').evaluate((el) => getComputedStyle(el.parentElement ?? el).opacity)).toBe('1');
          await page.screenshot({ path: `${SHOTS}/redeem-part-${language.key}-320.png` });
        }
        await cancelDialog();
      }
    }
    // Cancelled every time: nothing moved.
    const held = async () => (await api<{ held: string; unlockPercent: string }>('/api/user/zero-profit', token)).held;
    expect(await held()).toBe('6000');

    // In English, confirmed: a part of 1,000 first, then the rest, which lowers the tier.
    await page.context().addCookies([{ name: 'aic_earn_lang', value: 'en', url: server.baseUrl }]);
    await page.goto(`${server.baseUrl}/#/center`);
    await page.reload();
    const current = earn.order('Current');
    await redeem.click();
    await amount.fill('1000');
    await sheet.locator('.adm-button-primary').click();
    await earn.confirm();
    await expect.poll(() => text(earn.orderFigure(current, 'Quantity'))).toBe('2,000.00 AIC');
    expect(await text(earn.orderStatus(current))).toBe('In progress');
    expect(await held()).toBe('5000');
    await redeem.click();
    await expect.poll(() => amount.inputValue()).toBe('2000');
    await sheet.locator('.adm-button-primary').click();
    await dialog.getByTestId('redeem-tier-drop').waitFor();
    expect(await text(dialog.getByTestId('redeem-tier-drop'))).toBe(
      'Your holding in orders falls from 5,000.00 to 3,000.00 AIC: the share of network income it unlocks drops from 30% to 0%.',
    );
    await earn.confirm();
    await expect.poll(() => text(earn.orderStatus(current))).toBe('Redeemed');
    expect(await held()).toBe('3000');
    const wallet = await api<{ walletAic: string }>('/api/getAsset', token);
    expect(wallet.walletAic).toBe('3000');
    expect(errors).toEqual([]);
  });
});
