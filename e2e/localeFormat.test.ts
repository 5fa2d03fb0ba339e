import { readFileSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { HomeData } from '../contract/dashboard.ts';
import { truncateAmount } from '../contract/format.ts';
import type { UserInfoData } from '../contract/team.ts';
import type { AssetData } from '../contract/wallet.ts';
import { callApi } from './support/api.ts';
import { phonePage } from './support/browser.ts';
import { operatorAndInvitee } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

/**
 * Numbers in the holder's language (issue 44, point 4): amounts, rates as percentages, days and
 * a confirmation's amount written the way English, Indonesian and Hindi write them, on each main
 * screen. The expected texts are built here from the locale files' own words and each language's
 * separators, not by the app's formatter.
 */

const TODAY = '2026-11-20';
const ANNOUNCED_DAY = { year: '2026', month: '11', day: '27' };

type Language = {
  key: string;
  html: string;
  group: string;
  decimal: string;
  /** India groups the whole part as 12,34,567: thousands, then lakhs and crores. */
  lakh: boolean;
  day: (d: typeof ANNOUNCED_DAY) => string;
};

const LANGUAGES: Language[] = [
  { key: 'en', html: 'en', group: ',', decimal: '.', lakh: false, day: (d) => `${d.year}-${d.month}-${d.day}` },
  { key: 'Indonesia', html: 'id', group: '.', decimal: ',', lakh: false, day: (d) => `${d.day}/${d.month}/${d.year}` },
  { key: 'Hindi', html: 'hi', group: ',', decimal: '.', lakh: true, day: (d) => `${d.day}/${d.month}/${d.year}` },
];
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 320, height: 568 },
] as const;

type Tree = { [key: string]: string | Tree };
const messagesOf = (file: string) => JSON.parse(readFileSync(new URL(`../web/src/i18n/locales/${file}.json`, import.meta.url), 'utf8')) as Tree;

/** One message of a locale file by its dotted key. */
function message(tree: Tree, key: string): string {
  const found = key.split('.').reduce<string | Tree | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), tree);
  if (typeof found !== 'string') throw new Error(`no message ${key}`);
  return found;
}

const fill = (template: string, values: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');

/** Groups a whole number's digits: by three, or in India three then two at a time. */
function groupWhole(whole: string, language: Language): string {
  const size = (index: number) => (index === 0 || !language.lakh ? 3 : 2);
  const groups: string[] = [];
  let rest = whole;
  while (rest.length > size(groups.length)) {
    const cut = rest.length - size(groups.length);
    groups.unshift(rest.slice(cut));
    rest = rest.slice(0, cut);
  }
  groups.unshift(rest);
  return groups.join(language.group);
}

/** A plain decimal ("1234.5") as `language` writes it ("1.234,5" in Indonesian). */
function written(plain: string, language: Language): string {
  const [whole = '', fraction] = plain.split('.');
  return `${groupWhole(whole, language)}${fraction === undefined ? '' : `${language.decimal}${fraction}`}`;
}

const percent = (plain: string, language: Language) => `${written(plain, language)}%`;

const text = async (locator: Locator) => (await locator.textContent())?.trim() ?? '';

/** The figure (dd) labelled `label` (dt) inside `scope`. */
const figure = (page: Page, scope: Locator, label: string) =>
  scope.locator('.figure', { has: page.getByRole('term').getByText(label, { exact: true }) }).getByRole('definition');

describe('figures in the holder language, at 390x844 and 320x568', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ OPERATOR_USER_IDS: '1', CLOCK_START: `${TODAY}T08:00:00Z` }, (run) => ({ server, browser } = run));
  const api = <T>(path: string, token: string, body?: object) => callApi<T>(server.baseUrl, path, token, body);

  it('writes amounts, rates, days and a confirmation in English, Indonesian and Hindi', async () => {
    const { operator, olgaToken, holder, token } = await operatorAndInvitee(browser, server.baseUrl);
    // The holder brings 10,000 of the exchange's demo 20,000 AIC and subscribes 1,234.5 to the
    // 30-day product; a new 30-day rate is announced for a week on, then two days are settled.
    await api('/api/transfer-in', token, { asset: 'AIC', amount: '10000' });
    await api('/api/product/buy', token, { product: 'fixed30', amount: '1234.5' });
    const day = `${ANNOUNCED_DAY.year}-${ANNOUNCED_DAY.month}-${ANNOUNCED_DAY.day}`;
    await api('/api/operator/params', olgaToken, { name: 'earn.fixed30.daily_rate', value: '0.0035', effectiveDay: day });
    await api('/api/operator/clock/advance', olgaToken, { days: 2 });
    const home = await api<HomeData>('/api/home', token);
    const asset = await api<AssetData>('/api/getAsset', token);
    const info = await api<UserInfoData>('/api/user/info', token);
    // The wallet keeps 8,765.50; the demo pool is above 1,00,000 so that Hindi groups in lakhs.
    expect(asset.walletAic).toBe('8765.5');
    expect(truncateAmount(home.pool1).split('.')[0]?.length).toBeGreaterThan(6);

    // The holder opens the app on another phone: no figures kept from before the settlement.
    const { page, errors } = await phonePage(browser, 'en-US');
    await page.context().addCookies(await holder.page.context().cookies());

    for (const language of LANGUAGES) {
      const m = messagesOf(language.key);
      const t = (key: string, values: Record<string, string> = {}) => fill(message(m, key), values);
      const amount = (value: string) => written(truncateAmount(value), language);
      const fixed30 = t('product.fixed30.name');
      const rates = t('earn.rates', { rate: percent('0.3', language), apr: percent('109.5', language) });
      await page.context().addCookies([{ name: 'aic_earn_lang', value: language.key, url: server.baseUrl }]);

      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        const shot = (screen: string) => page.screenshot({ path: `/tmp/fmt-${language.key}-${viewport.width}-${screen}.png`, fullPage: true });
        const open = async (hash: string, title: string) => {
          await page.goto(`${server.baseUrl}/#/${hash}`);
          await page.reload();
          await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
          expect(await page.evaluate(() => document.documentElement.lang)).toBe(language.html);
        };
        const fitsWidth = async (screen: string) => {
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          expect(width, `${language.key} ${screen} at ${viewport.width}`).toBeLessThanOrEqual(viewport.width);
        };

        // Home: the platform's total subscribed, the pool, and the stable product's rate as a percentage.
        await page.goto(`${server.baseUrl}/#/home`);
        await page.reload();
        await expect.poll(() => text(page.getByTestId('total-amount'))).toBe(`${amount(home.totalAmount ?? '')} AIC`);
        const pools = page.getByRole('region', { name: t('home.pools'), exact: true });
        expect(await text(figure(page, pools, t('home.pool1')))).toBe(`${amount(home.pool1 ?? '')} AIC`);
        const platform = page.getByRole('region', { name: t('figures.title'), exact: true });
        await expect.poll(() => text(figure(page, platform, t('figures.stableRate')))).toBe(rates);
        await fitsWidth('home');
        await shot('home');

        // Earn centre: the 30-day rate, and the announced change written as a percentage on its day.
        await open('center?tab=fixed30', t('title.center'));
        await expect.poll(() => text(page.getByTestId('rate-fixed30'))).toBe(rates);
        const notice = page.getByRole('region', { name: fixed30, exact: true }).getByRole('note');
        await expect
          .poll(() => text(notice))
          .toBe(t('rates.upcoming', { name: t('operator.params.names.fixed30Rate'), value: percent('0.35', language), day: language.day(ANNOUNCED_DAY) }));
        await fitsWidth('center');
        await shot('center');
        // The 360-day rule names the configured coefficient base and multiplier, written as this
        // language writes numbers (Indonesian wrote 1.02 there and 1,02 beside it).
        await page.getByRole('tab', { name: t('product.reinvest360.name'), exact: true }).click();
        const rule = t('product.reinvest360.rule', { multiplier: '5', base: written('1.02', language) });
        await page.getByRole('region', { name: t('product.reinvest360.name'), exact: true }).getByText(rule, { exact: true }).waitFor();

        // Wallet: the total, and Recharge's confirmation says 10,000.00 like every other amount.
        await open('wallet', t('title.wallet'));
        await expect.poll(() => text(page.getByTestId('wallet-total'))).toBe(`${amount(asset.totalAic)} AIC`);
        const walletLine = figure(page, page.getByRole('region', { name: t('wallet.totalAssets'), exact: true }), t('wallet.inWallet'));
        expect(await text(walletLine)).toBe(`${written('8765.50', language)} AIC`);
        const recharge = t('wallet.type.recharge');
        await page.getByRole('group', { name: t('wallet.actions') }).getByRole('button', { name: recharge, exact: true }).click();
        const form = page.getByRole('dialog', { name: recharge, exact: true });
        await form.getByRole('textbox').fill('10000');
        await form.getByRole('button', { name: t('common.confirm'), exact: true }).click();
        const confirmation = page.getByRole('dialog', { name: t('wallet.confirmTitle') });
        await expect
          .poll(() => text(confirmation))
          .toContain(t('wallet.confirmMove', { action: recharge, amount: written('10000.00', language), asset: 'AIC' }));
        await shot('wallet-confirm');
        await confirmation.getByRole('button', { name: t('common.cancel'), exact: true }).click();
        await confirmation.waitFor({ state: 'hidden' });
        await fitsWidth('wallet');

        // My: the cumulative earnings, truncated to cents in the language's format.
        await open('my', t('title.my'));
        const earnings = page.getByRole('region', { name: t('my.earnings.title'), exact: true });
        await expect.poll(() => text(figure(page, earnings, t('my.earnings.cumulative')))).toBe(`${amount(info.earnings.cumulative)} AIC`);
        await fitsWidth('my');
        await shot('my');

        // Rate history: both versions of the 30-day rate as percentages.
        await open('rates', t('title.rates'));
        const versions = page.getByRole('list', { name: t('operator.params.names.fixed30Rate'), exact: true }).getByRole('listitem');
        await expect.poll(() => versions.count()).toBe(2);
        expect(await text(versions.nth(0))).toContain(percent('0.35', language));
        expect(await text(versions.nth(0))).toContain(t('rates.from', { day: language.day(ANNOUNCED_DAY) }));
        expect(await text(versions.nth(1))).toContain(percent('0.3', language));
        await fitsWidth('rates');
        await shot('rates');

        // Income detail: the 30-day line's formula with its numbers in the language's format.
        await open('income', t('title.income'));
        await page.getByRole('tab', { name: t('income.kind.fixed'), exact: true }).click();
        const lines = page.getByRole('list', { name: t('income.kind.fixed'), exact: true });
        await lines.getByRole('listitem').first().getByRole('button', { name: t('income.how') }).click();
        const how = page.getByRole('dialog', { name: t('income.how') });
        await expect
          .poll(() => text(how.getByTestId('income-expression')))
          .toBe(`${written('1234.5', language)} × ${percent('0.3', language)} = ${written('3.7035', language)} AIC`);
        await shot('income');
        await how.getByRole('button', { name: t('common.close') }).click();
        await how.waitFor({ state: 'hidden' });
        await fitsWidth('income');
      }
    }
    expect(errors).toEqual([]);
    expect(holder.errors).toEqual([]);
    expect(operator.errors).toEqual([]);
    // Six passes of five screens: on a busy machine that outlasts the project's two minutes.
  }, 300_000);
});
