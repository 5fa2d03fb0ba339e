import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Order } from '../contract/earn.ts';
import { formatAmount } from '../contract/format.ts';
import { EarnPage } from './pages/EarnPage.ts';
import { IncomePage } from './pages/IncomePage.ts';
import { callApi } from './support/api.ts';
import { operatorAndInvitee } from './support/flows.ts';
import { journey } from './support/journey.ts';
import { localeMessage } from './support/messages.ts';
import type { RunningServer } from './support/server.ts';

const SHOTS = '/tmp/yield-cap';

/**
 * The 360-day cap (issue 44, point 1): on a fresh start the pool releases 10,000 AIC a day, the
 * whole of it this holder's share; the form estimates, and the first settled day pays, at most
 * 3,000 × 0.5% = 15 AIC. The card and the estimate say the maximum, in each language's format,
 * and the card what the product paid once a day has settled, the holder's own power, and the
 * lock and the risk in a sentence; the confirm repeats the estimate.
 */
const LANGUAGES = [
  { key: 'en', html: 'en', estimate: '15.00 AIC', percent: '0.5%', apr: '182.5%' },
  { key: 'Indonesia', html: 'id', estimate: '15,00 AIC', percent: '0,5%', apr: '182,5%' },
  { key: 'Hindi', html: 'hi', estimate: '15.00 AIC', percent: '0.5%', apr: '182.5%' },
] as const;
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 320, height: 568 },
] as const;

/** A plain decimal with its whole part grouped the English way. */
const grouped = (value: string) => value.replace(/^\d+/, (whole) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ','));

const text = async (locator: { textContent: () => Promise<string | null> }) => (await locator.textContent())?.trim() ?? '';

describe('the 360-day estimate and the first settled day within the cap', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ OPERATOR_USER_IDS: '1', CLOCK_START: '2026-11-20T08:00:00Z' }, (run) => ({ server, browser } = run));
  const api = <T>(path: string, token: string, body?: object) => callApi<T>(server.baseUrl, path, token, body);

  /** The 360-day tab's card, estimate and its note, whatever the language (the third tab). */
  async function open360(page: Page) {
    await page.goto(`${server.baseUrl}/#/center`);
    await page.reload();
    await page.getByRole('tab').nth(2).click();
    const card = page.getByTestId('rate-reinvest360');
    await card.waitFor();
    const form = page.locator('form, section').filter({ has: page.locator('.preview') }).last();
    return { card, form, preview: page.locator('.preview').last() };
  }

  it('estimates and pays at most principal × 0.5% a day, and says so in three languages', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const { operator, olgaToken, holder, token } = await operatorAndInvitee(browser, server.baseUrl);
    const { page, errors } = holder;
    await api('/api/transfer-in', token, { asset: 'AIC', amount: '5000' });

    for (const language of LANGUAGES) {
      await page.context().addCookies([{ name: 'aic_earn_lang', value: language.key, url: server.baseUrl }]);
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        const { card, preview } = await open360(page);
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(language.html);
        expect(await text(card)).toBe(localeMessage(language.key, 'earn.poolShareCapped', { rate: language.percent }));
        const values = { rate: language.percent, apr: language.apr };
        expect(await text(page.getByTestId('max-rate-reinvest360'))).toBe(localeMessage(language.key, 'earn.poolMaxRates', values));
        expect(await text(page.getByTestId('recent-rate-reinvest360'))).toBe(localeMessage(language.key, 'earn.poolRecentNone', {}));
        expect(await text(page.getByTestId('risk-reinvest360'))).toBe(localeMessage(language.key, 'earn.poolRisk', { days: '360', rate: language.percent }));
        await page.locator('input[inputmode="decimal"]:visible').last().fill('3000');
        // The whole day's output (10,000 AIC) would be this holder's: the estimate is the cap.
        await expect.poll(() => text(preview.locator('.figure dd').nth(1))).toBe(language.estimate);
        expect(await text(preview.locator('.preview__note'))).toBe(localeMessage(language.key, 'earn.capNote', { rate: language.percent }));
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth, `${language.key} at ${viewport.width}`).toBeLessThanOrEqual(viewport.width);
        await preview.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/estimate-${language.key}-${viewport.width}.png` });
      }
    }

    // Subscribed in English, on the form, with its confirmation.
    await page.context().addCookies([{ name: 'aic_earn_lang', value: 'en', url: server.baseUrl }]);
    await page.setViewportSize(VIEWPORTS[0]);
    await page.reload();
    const earn = new EarnPage(page, server.baseUrl);
    await earn.goto();
    await earn.openTab('360 days');
    await earn.submit('360 days', '3000');
    // The confirm repeats the estimate, as one.
    expect(await text(earn.confirmDialog.getByTestId('confirm-pool-estimate'))).toMatch(
      /^Computing power [\d,]+\.\d\d; at today's output about 15\.00 AIC a day \(at most 0\.5% of the amount\), not guaranteed\.$/,
    );
    await earn.confirm();
    await page.getByText('Subscription successful').waitFor();

    // The order starts the next day; two days on, its first day is settled: 15 AIC, not 10,000.
    await api('/api/operator/clock/advance', olgaToken, { days: 2 });
    const orders = await api<{ items: Order[] }>('/api/user/product-list?product=reinvest360', token);
    expect(orders.items.map((order) => order.income)).toEqual(['15']);
    // The only power in the pool is this order's (5 × 3,000 × today's coefficient).
    const power = grouped(orders.items[0]?.power ?? '');
    // The card: what the settled day paid (the cap: 15 on 3,000), and the holder's own power.
    await earn.goto();
    await page.reload();
    await earn.openTab('360 days');
    await expect
      .poll(() => text(page.getByTestId('recent-rate-reinvest360')), { timeout: 5000 })
      .toBe('Paid on the last settled day: 0.5% daily · 182.5% APR');
    expect(await text(earn.productFigure('360 days', 'Your computing power'))).toBe(formatAmount(orders.items[0]?.power ?? ''));
    await page.getByTestId('risk-reinvest360').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/card-settled-en-390.png` });
    const income = new IncomePage(page, server.baseUrl);
    await income.open();
    await income.showKind('360 days');
    const dialog = await income.explain('360 days');
    expect(await text(dialog.getByTestId('income-expression'))).toBe(`min(10,000 × ${power} ÷ ${power}, 3,000 × 0.5%) = 15 AIC`);
    await page.screenshot({ path: `${SHOTS}/explained-en-390.png` });
    expect(errors).toEqual([]);
    expect(operator.errors).toEqual([]);
  });
});
