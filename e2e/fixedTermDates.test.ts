import { readFileSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Order, OrderListData, ProductInfoData } from '../contract/earn.ts';
import type { LanguageKey } from '../contract/languages.ts';
import { PATHS } from '../contract/paths.ts';
import { dayIn, localeOf } from '../web/src/lib/format.ts';
import { callApi } from './support/api.ts';
import { operatorAndInvitee } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

/** The texts this journey reads, from a locale file (web/src/i18n/locales/<file>.json). */
type Texts = {
  product: { fixed30: { name: string }; reinvest360: { name: string } };
  earn: {
    subscribeTo: string;
    subscribe: string;
    amount: string;
    countdown: string;
    termDays: string;
    orders: { remainingDays: string; countdown: string };
    dates: { value: string; maturity: string; principalRedeemable: string; principalBack: string };
  };
  wallet: { confirmTitle: string };
  common: { confirm: string };
};
const textsOf = (file: string): Texts =>
  JSON.parse(readFileSync(new URL(`../web/src/i18n/locales/${file}.json`, import.meta.url), 'utf8')) as Texts;
const fill = (message: string, values: Record<string, string | number>) =>
  message.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));

/**
 * The server's clock starts on 20 November at 08:00 UTC (a UTC day: the settlement's), so a
 * 30-day order bought now starts earning on the 21st and matures, its principal redeemable, at
 * 00:00 UTC on 21 December.
 */
const CLOCK_START = '2026-11-20T08:00:00Z';
const VALUE_DAY = '2026-11-21';
const MATURES_DAY = '2026-12-21';
/** A 360-day order bought now matures 360 days after its value date. */
const LONG_MATURES_DAY = '2027-11-16';
const LANGUAGES = [
  { key: 'en', html: 'en' },
  { key: 'Indonesia', html: 'id' },
  { key: 'Hindi', html: 'hi' },
] as const;
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 320, height: 568 },
] as const;

const text = async (locator: Locator) => (await locator.textContent())?.trim() ?? '';

/**
 * A date figure shows `day`: its machine-readable day, and the day as the language writes a date
 * (web/src/lib/format.ts, the app's own formatter: "2026-11-21" in English, "21/11/2026" in Indonesian).
 */
async function expectDay(value: Locator, day: string, language: LanguageKey): Promise<void> {
  const time = value.locator('time');
  expect(await time.getAttribute('datetime')).toBe(day);
  expect(await text(time)).toBe(dayIn(localeOf(language), day));
}

/** The value (dd) of the figure labelled exactly `label` (dt) inside `scope`. */
const figure = (page: Page, scope: Locator, label: string) =>
  scope.locator('.figure', { has: page.locator('dt').getByText(label, { exact: true }) }).locator('dd');

describe('a fixed term’s dates, from the form to the order card, in three languages at 390x844 and 320x568', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ OPERATOR_USER_IDS: '1', CLOCK_START }, (run) => ({ server, browser } = run));
  const api = <T>(path: string, token: string, body?: object) => callApi<T>(server.baseUrl, path, token, body);

  it('shows the value and maturity dates before buying and in the confirmation, then the same on the order with 30 days and a countdown that agree', async () => {
    const { operator, holder, token } = await operatorAndInvitee(browser, server.baseUrl);
    const { page, errors } = holder;
    await api(PATHS.transferIn, token, { asset: 'AIC', amount: '1000' });
    // What the server quotes, from its clock: the dates the screen must show.
    const quote = (await api<ProductInfoData>(PATHS.productInfo, token)).termDates.find((d) => d.product === 'fixed30');
    expect(quote?.dates).toEqual({ valueDay: VALUE_DAY, maturesDay: MATURES_DAY, principalReturnDay: MATURES_DAY });

    for (const language of LANGUAGES) {
      const t = textsOf(language.key);
      const product = t.product.fixed30.name;
      await page.context().addCookies([{ name: 'aic_earn_lang', value: language.key, url: server.baseUrl }]);
      for (const viewport of VIEWPORTS) {
        const shot = `/tmp/dates-${language.key}-${viewport.width}`;
        await page.setViewportSize(viewport);
        await page.goto(`${server.baseUrl}/#/center`);
        await page.reload();
        await page.getByRole('tab', { name: product, exact: true }).click();
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(language.html);
        const form = page.getByRole('region', { name: fill(t.earn.subscribeTo, { product }), exact: true });

        // Before buying: the dates under the form.
        const dates = form.getByTestId('term-dates-fixed30');
        await dates.waitFor();
        await expectDay(figure(page, dates, t.earn.dates.value), VALUE_DAY, language.key);
        await expectDay(figure(page, dates, t.earn.dates.maturity), MATURES_DAY, language.key);
        await expectDay(figure(page, dates, t.earn.dates.principalRedeemable), MATURES_DAY, language.key);
        await form.getByRole('textbox', { name: t.earn.amount }).fill('10');
        await dates.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${shot}-form.png` });
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${language.key} at ${viewport.width}`).toBeLessThanOrEqual(viewport.width);

        // In the confirmation: the same dates.
        await form.getByRole('button', { name: t.earn.subscribe, exact: true }).click();
        const dialog = page.getByRole('dialog', { name: t.wallet.confirmTitle });
        const confirmDates = dialog.getByTestId('term-dates-fixed30');
        await confirmDates.waitFor();
        await expectDay(figure(page, confirmDates, t.earn.dates.value), VALUE_DAY, language.key);
        await expectDay(figure(page, confirmDates, t.earn.dates.maturity), MATURES_DAY, language.key);
        // Shot once the dialog has faded in (its wrapper's opacity is animated to 1).
        await expect.poll(() => dialog.evaluate((el) => getComputedStyle(el.closest('.adm-center-popup-wrap') ?? el).opacity)).toBe('1');
        await page.screenshot({ path: `${shot}-confirm.png` });
        await dialog.getByRole('button', { name: t.common.confirm, exact: true }).click();
        await dialog.waitFor({ state: 'hidden' });

        // The order card: the same dates, 30 days remaining, and a countdown of 30 days and hours.
        const orders = await api<OrderListData>(`${PATHS.productList}?product=fixed30`, token);
        const order = orders.items[0] as Order;
        expect(order).toMatchObject({ remainingDays: 30, dates: { valueDay: VALUE_DAY, maturesDay: MATURES_DAY } });
        const card = page.locator('li.order', { has: page.locator('h3').getByText(new RegExp(`#${order.id}$`)) });
        await card.waitFor();
        await expectDay(figure(page, card, t.earn.dates.value), VALUE_DAY, language.key);
        await expectDay(figure(page, card, t.earn.dates.maturity), MATURES_DAY, language.key);
        await expectDay(figure(page, card, t.earn.dates.principalRedeemable), MATURES_DAY, language.key);
        expect(await text(figure(page, card, t.earn.orders.remainingDays))).toBe(fill(t.earn.termDays, { count: 30 }));
        const countdown = figure(page, card, t.earn.orders.countdown).locator('time');
        // The countdown's whole days are the remaining days: "30d 15:59:58" beside "30 days".
        const seconds = Number((await countdown.getAttribute('datetime'))?.replace(/^PT(\d+)S$/, '$1'));
        expect(Math.floor(seconds / 86_400)).toBe(30);
        expect(await text(countdown)).toMatch(new RegExp(`^${fill(t.earn.countdown, { days: 30, time: '\\d\\d:\\d\\d:\\d\\d' })}$`));
        await card.scrollIntoViewIfNeeded();
        await page.locator('.adm-toast-mask').waitFor({ state: 'detached' });
        await page.screenshot({ path: `${shot}-order.png` });
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${language.key} at ${viewport.width}`).toBeLessThanOrEqual(viewport.width);
      }
    }

    // The 360-day form: its own term, and the principal back in the wallet by itself at maturity.
    const t = textsOf('Hindi');
    const product = t.product.reinvest360.name;
    await page.getByRole('tab', { name: product, exact: true }).click();
    const dates = page.getByRole('region', { name: fill(t.earn.subscribeTo, { product }), exact: true }).getByTestId('term-dates-reinvest360');
    await dates.waitFor();
    await expectDay(figure(page, dates, t.earn.dates.value), VALUE_DAY, 'Hindi');
    await expectDay(figure(page, dates, t.earn.dates.maturity), LONG_MATURES_DAY, 'Hindi');
    await expectDay(figure(page, dates, t.earn.dates.principalBack), LONG_MATURES_DAY, 'Hindi');
    await dates.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/dates-Hindi-320-form360.png' });
    expect(errors).toEqual([]);
    expect(operator.errors).toEqual([]);
  });
});
