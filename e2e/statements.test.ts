import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PATHS } from '../contract/paths.ts';
import { STATEMENT_COLUMNS } from '../contract/statement.ts';
import { parseCsv } from '../server/statement/parseCsv.ts';
import { ExchangeSignInPage } from './pages/ExchangeSignInPage.ts';
import { MyPage } from './pages/MyPage.ts';
import { SessionsPage } from './pages/SessionsPage.ts';
import { StatementPage } from './pages/StatementPage.ts';
import { callApi } from './support/api.ts';
import { phonePage } from './support/browser.ts';
import { signInThroughExchange, storedCookie } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

const text = async (locator: { textContent: () => Promise<string | null> }) => (await locator.textContent())?.trim();

describe('statement and signed-in devices at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ CLOCK_START: '2026-11-20T08:00:00Z' }, (run) => ({ server, browser } = run));

  it('reads the month, exports the CSV, and signs out the other device', async () => {
    // The holder signs in on two devices (two browser contexts): two sessions.
    const phone = await phonePage(browser, 'en-US');
    await signInThroughExchange(phone.page, server.baseUrl, { pick: 'Alice' });
    const token = (await storedCookie(phone.page, 'token')) as string;
    const userId = (await storedCookie(phone.page, 'userId')) as string;
    const tablet = await phonePage(browser, 'en-US');
    await signInThroughExchange(tablet.page, server.baseUrl, { pick: 'Alice' });
    expect(await storedCookie(tablet.page, 'userId')).toBe(userId);

    await callApi(server.baseUrl, PATHS.transferIn, token, { asset: 'AIC', amount: '500' });
    await callApi(server.baseUrl, PATHS.recharge, token, { asset: 'USDT', amount: '100' });
    await callApi(server.baseUrl, PATHS.withdraw, token, { asset: 'AIC', amount: '50' });

    // My leads to the statement of this month (the server's clock: November 2026).
    const { page, errors } = phone;
    const my = new MyPage(page, server.baseUrl);
    await my.goto();
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Statement' }).click();
    const statement = new StatementPage(page, server.baseUrl);
    await statement.heading.waitFor();
    await expect.poll(() => text(statement.month)).toBe('2026-11');
    expect(await statement.nextMonthButton.isDisabled()).toBe(true);
    expect(await text(statement.figure('AIC', 'Opening balance'))).toBe('0.00 AIC');
    // What the platform holds for Alice: her balance at the exchange is the exchange's, not in her statement.
    expect(await text(statement.figure('AIC', 'Closing balance'))).toBe('500.00 AIC');
    expect(await text(statement.figure('USDT', 'Closing balance'))).toBe('100.00 USDT');
    // Money in is what came from outside; the withdrawal under review is still Alice's (waiting
    // in withdrawals pending), so it is not money out yet.
    expect(await text(statement.figure('AIC', 'Money in'))).toBe('+500.00 AIC');
    expect(await text(statement.figure('AIC', 'Money out'))).toBe('0.00 AIC');
    await expect.poll(() => statement.movements.getByRole('listitem').count()).toBe(4);
    expect(await text(statement.movement(0))).toContain('Transfer');
    const withdrawal = (await text(statement.movement(3))) ?? '';
    expect(withdrawal).toContain('Withdrawal');
    expect(withdrawal).toContain('Under review');
    expect(withdrawal).toContain('+50.00');
    await page.screenshot({ path: '/tmp/statement-screen.png', fullPage: true });

    // October is empty; the picker comes back to November.
    await statement.previousMonth();
    await statement.empty.waitFor();
    expect(await text(statement.month)).toBe('2026-10');
    await statement.nextMonthButton.click();
    await expect.poll(() => statement.movements.getByRole('listitem').count()).toBe(4);

    // The CSV: the documented header, and the rows of the whole history.
    const { filename, text: csv } = await statement.exportCsv();
    expect(filename).toBe(`aic-statement-${userId}-2026-11-20.csv`);
    const [header, ...rows] = parseCsv(csv);
    expect(header).toEqual([...STATEMENT_COLUMNS]);
    expect(rows).toHaveLength(4);
    expect(rows.map((row) => row[2])).toEqual(['transfer', 'recharge', 'withdrawal', 'withdrawal']);
    expect(rows.map((row) => row.at(-1))).toEqual(['in', 'in', 'internal', 'internal']);
    expect(rows.find((row) => row[2] === 'transfer' && row[3] === 'wallet')?.slice(4, 7)).toEqual([
      'AIC', '500.00000000', '500.00000000',
    ]);
    await page.getByText('Statement downloaded').waitFor();

    // Signed-in devices, from My: two, this one marked; the other is revoked after a confirmation.
    await my.goto();
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Signed-in devices' }).click();
    const sessions = new SessionsPage(page, server.baseUrl);
    await sessions.heading.waitFor();
    await expect.poll(() => sessions.items.count()).toBe(2);
    expect(await sessions.current.count()).toBe(1);
    expect(await text(sessions.current)).toContain('Chrome on Linux');
    const question = await sessions.revokeFirstOther();
    expect(question).toContain('Sign out Chrome on Linux?');
    await page.getByText('Signed out', { exact: true }).waitFor();
    await sessions.confirmDialog.waitFor({ state: 'hidden' });
    await expect.poll(() => sessions.items.count()).toBe(1);
    expect(await sessions.revokeOthersButton.isDisabled()).toBe(true);
    await page.screenshot({ path: '/tmp/sessions-screen.png', fullPage: true });

    // The other device's next call is refused: it is logged out, told so, and signs in again
    // through the exchange when its holder asks.
    // (Its first call on the wallet: Home already read getAsset, so it may be another.)
    const refused = tablet.page.waitForResponse((response) => response.url().includes('/api/') && response.status() === 401);
    await tablet.page.goto(`${server.baseUrl}/#/wallet`);
    expect((await refused).status()).toBe(401);
    await tablet.page.getByTestId('session-ended').waitFor();
    expect(await storedCookie(tablet.page, 'token')).toBeUndefined();
    await tablet.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await new ExchangeSignInPage(tablet.page).waitFor();
    // This device goes on.
    await callApi(server.baseUrl, PATHS.sessions, token);

    expect(errors).toEqual([]);
    expect(tablet.errors).toEqual([]);
  });
});
