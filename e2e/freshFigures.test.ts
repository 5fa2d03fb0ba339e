import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EarnPage } from './pages/EarnPage.ts';
import { WalletPage } from './pages/WalletPage.ts';
import { callApi } from './support/api.ts';
import { operatorAndInvitee } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

const text = async (locator: { textContent: () => Promise<string | null> }) => (await locator.textContent())?.trim();

type Marked = { freshFiguresMarker?: string };

/** A mark on the window: it survives in-app navigation and history, and a reload loses it. */
const mark = (page: Page) => page.evaluate(() => void ((window as Marked).freshFiguresMarker = 'still here'));
const marker = (page: Page) => page.evaluate(() => (window as Marked).freshFiguresMarker);

describe('fresh figures after moving money, at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ OPERATOR_USER_IDS: '1' }, (run) => ({ server, browser } = run));

  it('shows the new Available back on the kept centre, and subscribes once a balance covers the amount', async () => {
    // Hana signs in on her phone and binds Olga's invitation code, so she may subscribe.
    const { holder, operator, token } = await operatorAndInvitee(browser, server.baseUrl);
    const { page, errors } = holder;
    const earn = new EarnPage(page, server.baseUrl);
    const wallet = new WalletPage(page, server.baseUrl);
    const available = () => text(earn.formNote('Current', /^Available:/));
    await earn.goto();
    await earn.amountInput('Current').waitFor();
    expect(await available()).toBe('Available: 0.00 AIC');
    // From here on every screen change happens inside the app: a reload would lose the mark.
    await mark(page);

    // To the wallet from the centre, a recharge, then Back: the kept centre shows the new balance.
    await page.getByRole('link', { name: 'Wallet', exact: true }).click();
    await wallet.heading.waitFor();
    await wallet.openMove('Recharge');
    await wallet.submit('Recharge', '300');
    await wallet.confirm();
    await page.getByText('Operation successful').waitFor();
    await wallet.form('Recharge').waitFor({ state: 'hidden' });
    await expect.poll(() => text(wallet.balance('AIC', 'Available'))).toBe('300.00');
    await page.goBack();
    await earn.heading.waitFor();
    await expect.poll(available).toBe('Available: 300.00 AIC');
    expect(await marker(page)).toBe('still here');

    // 500 is more than the wallet holds: refused, under the field.
    await earn.submit('Current', '500');
    expect(await text(earn.formError('Current'))).toBe('Insufficient balance');

    // A recharge in the wallet, and Back: the figure the refusal was about has changed, so the
    // refusal is gone, and the same amount goes through.
    await page.getByRole('link', { name: 'Wallet', exact: true }).click();
    await wallet.heading.waitFor();
    await wallet.openMove('Recharge');
    await wallet.submit('Recharge', '400');
    await wallet.confirm();
    await page.getByText('Operation successful').waitFor();
    await wallet.form('Recharge').waitFor({ state: 'hidden' });
    await page.goBack();
    await earn.heading.waitFor();
    await expect.poll(available).toBe('Available: 700.00 AIC');
    await earn.formError('Current').waitFor({ state: 'detached' });
    expect(await earn.amountInput('Current').inputValue()).toBe('500');
    await earn.submit('Current');
    expect(await text(earn.confirmDialog)).toContain('Subscribe 500.00 AIC to Current?');
    await earn.confirm();
    await page.getByText('Subscription successful').waitFor();
    await expect.poll(available).toBe('Available: 200.00 AIC');

    // 1,000 is refused again; then Hana recharges from another device, which this screen cannot
    // know of. Subscribe asks the server for the balance before refusing, and goes through.
    await earn.submit('Current', '1000');
    expect(await text(earn.formError('Current'))).toBe('Insufficient balance');
    await callApi(server.baseUrl, '/api/recharge', token, { asset: 'AIC', amount: '1500' });
    const reread = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/product/info');
    await earn.submit('Current');
    await reread;
    expect(await text(earn.confirmDialog)).toContain('Subscribe 1,000.00 AIC to Current?');
    await earn.formError('Current').waitFor({ state: 'detached' });
    await earn.confirm();
    await page.getByText('Subscription successful').waitFor();
    await expect.poll(available).toBe('Available: 700.00 AIC');

    // No reload anywhere on the way: the centre was the kept one, refreshed through its queries.
    expect(await marker(page)).toBe('still here');
    expect(errors).toEqual([]);
    expect(operator.errors).toEqual([]);
  });
});
