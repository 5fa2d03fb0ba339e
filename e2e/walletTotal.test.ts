import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { UserInfoData } from '../contract/team.ts';
import type { AssetData } from '../contract/wallet.ts';
import { formatAmount } from '../contract/format.ts';
import { formatUnits, mulRate, parseAmount } from '../contract/money.ts';
import { ProofPage } from './pages/ProofPage.ts';
import { StatementPage } from './pages/StatementPage.ts';
import { WalletPage } from './pages/WalletPage.ts';
import { callApi } from './support/api.ts';
import { operatorAndInvitee } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

const SHOTS = '/tmp/wallet-total';

/** An English amount ("10,006.12") with the separators of a language whose decimal is `decimal`. */
const inLanguage = (english: string, decimal: Decimal) =>
  decimal === ',' ? english.replace(/[,.]/g, (c) => (c === ',' ? '.' : ',')) : english;

/** The total's texts in each language the journey reads it in (the locale files' own words). */
const LANGUAGES = [
  { key: 'en', html: 'en', region: 'Total assets', wallet: 'Wallet', products: 'In earn products', claimable: 'Claimable', locked: 'Locked', usd: 'All assets ≈ $', decimal: '.' },
  {
    key: 'Indonesia',
    html: 'id',
    region: 'Total aset',
    wallet: 'Dompet',
    products: 'Di produk Hasilkan Koin',
    claimable: 'Dapat diklaim',
    locked: 'Terkunci',
    usd: 'Semua aset sekitar $',
    decimal: ',',
  },
  { key: 'Hindi', html: 'hi', region: 'कुल एसेट', wallet: 'वॉलेट', products: 'कमाई उत्पादों में', claimable: 'क्लेम योग्य', locked: 'लॉक', usd: 'सभी एसेट लगभग $', decimal: '.' },
] as const;
type Decimal = (typeof LANGUAGES)[number]['decimal'];
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 320, height: 568 },
] as const;

const text = async (locator: { textContent: () => Promise<string | null> }) => (await locator.textContent())?.trim() ?? '';

/**
 * An amount as the screen shows it ("6,006.00 AIC", Indonesian "6.006,00 AIC") in units: its
 * digits and its decimal separator only. Below 100,000 Hindi groups as English does.
 */
function shown(value: string, decimal: Decimal = '.'): bigint {
  const plain = value.replace(new RegExp(`[^\\d${decimal}]`, 'g'), '').replace(decimal, '.');
  const parsed = parseAmount(plain.replace(/^\.+|\.+$/g, ''));
  if (!parsed.ok) throw new Error(`not an amount on screen: ${value}`);
  return parsed.value;
}

describe('total assets that add up, in three languages, at 390x844 and 320x568', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ OPERATOR_USER_IDS: '1', CLOCK_START: '2026-11-20T08:00:00Z' }, (run) => ({ server, browser } = run));
  const api = <T>(path: string, token: string, body?: object) => callApi<T>(server.baseUrl, path, token, body);

  it('shows each asset’s total (AIC the sum of its four lines), both in USD, equal to the statement, the proof and Home’s summary, without sideways scroll', async () => {
    mkdirSync(SHOTS, { recursive: true });
    // The operator (user 1) invites the holder and moves the demo clock.
    const { operator, olgaToken, holder, token } = await operatorAndInvitee(browser, server.baseUrl);
    const { page, errors } = holder;

    // The holder recharges 10,000 AIC on the Wallet screen.
    const wallet = new WalletPage(page, server.baseUrl);
    await wallet.goto();
    await wallet.openMove('Recharge');
    await wallet.submit('Recharge', '10000');
    await wallet.confirm();
    await page.getByText('Operation successful').waitFor();
    await wallet.form('Recharge').waitFor({ state: 'hidden' });
    await expect.poll(() => text(wallet.totalLine('Wallet'))).toBe('10,000.00 AIC');
    expect(await text(wallet.totalAmount)).toBe('10,000.00 AIC');

    // And 500 USDT: its own total; no AIC figure moves.
    await wallet.openMove('Recharge');
    await wallet.chooseAsset('Recharge', 'USDT');
    await wallet.submit('Recharge', '500');
    await wallet.confirm();
    await wallet.form('Recharge').waitFor({ state: 'hidden' });
    await expect.poll(() => text(wallet.totalUsdt)).toBe('500.00 USDT');
    expect(await text(wallet.totalAmount)).toBe('10,000.00 AIC');
    expect(await text(wallet.totalLine('Wallet'))).toBe('10,000.00 AIC');

    // Then subscribes 6,000 of it, and two days are settled: the 30-day order accrues 6 AIC
    // a day into the order (a whole amount), the 360-day one's pool share goes to its rewards.
    await api('/api/product/buy', token, { product: 'fixed30', amount: '2000' });
    await api('/api/product/buy', token, { product: 'reinvest360', amount: '4000' });
    await api('/api/operator/clock/advance', olgaToken, { days: 2 });
    const answer = await api<AssetData>('/api/getAsset', token);
    const info = await api<UserInfoData>('/api/user/info', token);
    expect(shown(info.earnings.yesterday)).toBeGreaterThan(0n);
    expect(answer).toMatchObject({ walletAic: '4000', earnAic: '6006', lockedAic: '0' });
    expect(shown(answer.claimableAic)).toBeGreaterThan(0n);
    expect(answer.owned).toEqual([
      { asset: 'AIC', total: answer.totalAic, usd: formatUnits(mulRate(shown(answer.totalAic), answer.price)) },
      { asset: 'USDT', total: '500', usd: '500' },
    ]);
    expect(answer.totalUsd).toBe(formatUnits(mulRate(shown(answer.totalAic), answer.price) + shown('500')));

    // The same figure on the statement (the month's closing) and in the day's proof: nothing
    // moved since the day settled and its proof was built.
    const statement = new StatementPage(page, server.baseUrl);
    await statement.goto();
    for (const [asset, total] of [
      ['AIC', answer.totalAic],
      ['USDT', '500'],
    ] as const) {
      await expect.poll(() => text(statement.figure(asset, 'Closing balance'))).toBe(`${formatAmount(total)} ${asset}`);
    }
    const proof = new ProofPage(page, server.baseUrl);
    await proof.goto();
    await proof.mine.getByRole('button', { name: 'Verify my proof' }).click();
    await expect.poll(() => text(proof.page.getByTestId('proof-verdict'))).toContain(`Your balances of ${formatAmount(answer.totalAic)} AIC are included`);

    for (const language of LANGUAGES) {
      await page.context().addCookies([{ name: 'aic_earn_lang', value: language.key, url: server.baseUrl }]);
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await page.goto(`${server.baseUrl}/#/wallet`);
        await page.reload();
        await wallet.totalAmount.waitFor();
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(language.html);

        // The four lines, in this language, add up to the AIC total shown: the wallet and product
        // lines are whole amounts and nothing is locked, so the figures truncated to cents add up exactly.
        const line = (label: string) => text(wallet.totalLine(label, language.region));
        // The figures this phone saved (before the subscription) show until the fresh ones arrive.
        await expect.poll(() => line(language.wallet)).toBe(inLanguage('4,000.00 AIC', language.decimal));
        const lines = await Promise.all([language.wallet, language.products, language.claimable, language.locked].map(line));
        const [inWallet, inProducts, claimable = '', locked] = lines;
        const { decimal } = language;
        expect(inWallet).toBe(inLanguage('4,000.00 AIC', decimal));
        expect(inProducts).toBe(inLanguage('6,006.00 AIC', decimal));
        expect(shown(claimable, decimal)).toBeGreaterThan(0n);
        expect(locked).toBe(inLanguage('0.00 AIC', decimal));
        expect(shown(await text(wallet.totalAmount), decimal)).toBe(lines.reduce((sum, l) => sum + shown(l, decimal), 0n));
        expect(await text(wallet.totalAmount)).toBe(`${inLanguage(formatAmount(answer.totalAic), decimal)} AIC`);
        expect(await text(wallet.totalUsdt)).toBe(`${inLanguage('500.00', decimal)} USDT`);
        // Both assets in USD at the price in force, labelled so, shown the way amounts are.
        expect(await text(wallet.totalUsd)).toBe(`${language.usd}${inLanguage(formatAmount(answer.totalUsd), decimal)}`);

        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth, `${language.key} at ${viewport.width}`).toBeLessThanOrEqual(viewport.width);
        if (viewport.width === 320) await page.screenshot({ path: `${SHOTS}/wallet-total-${language.key}-320.png` });

        // Home: the platform's dashboard, and the holder's own summary with the same figures.
        await page.goto(`${server.baseUrl}/#/`);
        const mine = (id: string) => text(page.getByTestId(id));
        await expect.poll(() => mine('home-mine-aic')).toBe(`${inLanguage(formatAmount(answer.totalAic), decimal)} AIC`);
        expect(await mine('home-mine-usdt')).toBe(`${inLanguage('500.00', decimal)} USDT`);
        expect(await mine('home-mine-usd')).toBe(`${language.usd}${inLanguage(formatAmount(answer.totalUsd), decimal)}`);
        await expect.poll(() => mine('home-mine-yesterday')).toContain(inLanguage(formatAmount(info.earnings.yesterday), decimal));
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        if (viewport.width === 320) await page.screenshot({ path: `${SHOTS}/home-mine-${language.key}-320.png` });
      }
    }
    expect(errors).toEqual([]);
    expect(operator.errors).toEqual([]);
  });
});
