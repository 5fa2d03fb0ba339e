import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CenterPage } from './pages/CenterPage.ts';
import { ExchangeSignInPage } from './pages/ExchangeSignInPage.ts';
import { MyPage } from './pages/MyPage.ts';
import { TabBar } from './pages/TabBar.ts';
import { WalletPage } from './pages/WalletPage.ts';
import { phonePage } from './support/browser.ts';
import { signInThroughExchange, storedCookie } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

const MOVE_CALL = /\/api\/(recharge|transfer-in|transfer-out|withdraw)$/;

type SentMove = { path: string; key: string | undefined };

/** Every wallet move the page sends (path and Idempotency-Key): the checks must stop bad amounts. */
function recordMoves(page: Page): SentMove[] {
  const sent: SentMove[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === 'POST' && MOVE_CALL.test(path)) sent.push({ path, key: request.headers()['idempotency-key'] });
  });
  return sent;
}

const text = async (locator: { textContent: () => Promise<string | null> }) => (await locator.textContent())?.trim();

describe('asset wallet at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ OPERATOR_USER_IDS: '1' }, (run) => ({ server, browser } = run));

  it('transfers in, withdraws for review, an operator approves, and the record shows success', async () => {
    // The operator signs in first, in its own context, so it is user 1.
    const operator = await phonePage(browser, 'en-US');
    await signInThroughExchange(operator.page, server.baseUrl, { create: 'Olga' });
    expect(await storedCookie(operator.page, 'userId')).toBe('1');
    const operatorToken = (await storedCookie(operator.page, 'token')) as string;

    // The holder opens the wallet from home, and from the earn-coins centre.
    const { page, errors } = await phonePage(browser, 'en-US');
    await signInThroughExchange(page, server.baseUrl, { create: 'Hana' });
    const holderToken = (await storedCookie(page, 'token')) as string;
    await page.getByRole('button', { name: 'Wallet', exact: true }).click();
    const wallet = new WalletPage(page, server.baseUrl);
    await wallet.heading.waitFor();
    expect(page.url()).toContain('#/wallet');
    await page.goto(`${server.baseUrl}/#/center`);
    await new CenterPage(page).tab('Current').waitFor();
    await new TabBar(page).open('Wallet');
    await wallet.heading.waitFor();
    // The exchange's line is asked apart from the platform's figures and fills in when it answers.
    await expect.poll(() => text(wallet.balance('AIC', 'Exchange balance'))).toBe('20,000.00');
    expect(await text(wallet.balance('AIC', 'Available'))).toBe('0.00');
    const sent = recordMoves(page);

    // Transfer in: the amount rules run before anything is sent.
    await wallet.openMove('Transfer in');
    await wallet.submit('Transfer in');
    expect(await text(wallet.formError('Transfer in'))).toBe('Please enter the quantity');
    await wallet.submit('Transfer in', '20000.00000001');
    expect(await text(wallet.formError('Transfer in'))).toBe('Insufficient balance');
    await wallet.submit('Transfer in', '1.123456789');
    expect(await text(wallet.formError('Transfer in'))).toBe('At most 8 decimal places');
    expect(sent).toEqual([]);

    // The first answer is lost on the way back (the server did move the money); retrying the
    // same confirmed action sends the same Idempotency-Key, so it happens once.
    let lost = false;
    await page.route('**/api/transfer-in', async (route) => {
      if (lost) return route.continue();
      lost = true;
      await route.fetch();
      await route.abort('connectionreset');
    });
    await wallet.submit('Transfer in', '500');
    expect(await text(wallet.confirmDialog)).toContain('Transfer in 500.00 AIC?');
    await wallet.confirm();
    await page.getByText('Network connection failure').waitFor();
    await wallet.submit('Transfer in');
    await wallet.confirm();
    await page.getByText('Operation successful').waitFor();
    await wallet.form('Transfer in').waitFor({ state: 'hidden' });
    await page.unroute('**/api/transfer-in');
    expect(sent).toHaveLength(2);
    expect(sent[0]?.key).toMatch(/^[\w-]{36}$/);
    expect(sent[1]?.key).toBe(sent[0]?.key);
    await expect.poll(() => text(wallet.balance('AIC', 'Available'))).toBe('500.00');
    await expect.poll(() => text(wallet.balance('AIC', 'Exchange balance'))).toBe('19,500.00');

    // Withdraw: Max fills the whole available amount; over it is refused without sending.
    await wallet.openMove('Withdraw');
    // No request was decided yet: the form says who reviews, and that there is no wait to tell.
    expect(await text(wallet.reviewTime('Withdraw'))).toBe('An operator reviews each request; none was decided in the last 30 days');
    await page.screenshot({ path: '/tmp/wallet-withdraw-form.png' });
    await wallet.fillMax('Withdraw');
    expect(await wallet.amountInput('Withdraw').inputValue()).toBe('500');
    await wallet.submit('Withdraw', '500.01');
    expect(await text(wallet.formError('Withdraw'))).toBe('Insufficient balance');
    expect(sent).toHaveLength(2);
    await wallet.submit('Withdraw', '200');
    expect(await text(wallet.confirmDialog)).toContain('Withdraw 200.00 AIC?');
    await wallet.confirm();
    await page.getByText('Submitted for review').waitFor();
    await wallet.form('Withdraw').waitFor({ state: 'hidden' });
    await expect.poll(() => text(wallet.balance('AIC', 'Available'))).toBe('300.00');
    expect(await text(wallet.balance('AIC', 'Under review'))).toBe('200.00');
    expect(sent).toHaveLength(3);
    expect(sent[2]?.key).not.toBe(sent[0]?.key);

    // The records, newest first: the withdrawal under review, the transfer in done.
    await expect.poll(() => wallet.records.getByRole('listitem').count()).toBe(2);
    const withdrawal = (await text(wallet.record(0))) ?? '';
    expect(withdrawal).toContain('Withdraw');
    expect(withdrawal).toContain('-200.00');
    expect(withdrawal).toContain('Under review');
    const transferIn = (await text(wallet.record(1))) ?? '';
    expect(transferIn).toContain('Transfer in');
    expect(transferIn).toContain('+500.00');
    expect(transferIn).toContain('Success');
    await page.getByText('No more').waitFor();
    await page.screenshot({ path: '/tmp/wallet-screen.png', fullPage: true });

    // The operator approves the withdrawal.
    const list = await fetch(`${server.baseUrl}/api/transfer-records?type=withdraw`, {
      headers: { Authorization: `Bearer ${holderToken}` },
    }).then((r) => r.json() as Promise<{ data: { items: { id: string; status: string }[] } }>);
    const id = list.data.items[0]?.id;
    expect(list.data.items[0]?.status).toBe('under_review');
    const approved = await fetch(`${server.baseUrl}/api/operator/reviews/${id}/approve`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${operatorToken}`,
        'Idempotency-Key': randomUUID(),
        'Content-Type': 'application/json',
      },
      body: '{}',
    });
    expect(approved.status).toBe(200);

    // The holder pulls to refresh: the withdrawal has succeeded and left for the exchange.
    const refetched = page.waitForResponse((response) => response.url().includes('/api/getAsset'));
    await wallet.pullToRefresh();
    await refetched;
    await expect.poll(async () => (await text(wallet.record(0))) ?? '').toContain('Success');
    expect(await text(wallet.record(0))).toContain('Withdraw');
    expect(await text(wallet.balance('AIC', 'Under review'))).toBe('0.00');
    await expect.poll(() => text(wallet.balance('AIC', 'Exchange balance'))).toBe('19,700.00');

    // The decision is the review time's first: the withdraw form now tells the wait (at least a minute).
    await wallet.openMove('Withdraw');
    await expect.poll(() => text(wallet.reviewTime('Withdraw'))).toBe('Usually reviewed within 1 minute (the median of the last 30 days)');
    await page.screenshot({ path: '/tmp/wallet-withdraw-review.png' });
    await wallet.closeMove('Withdraw');

    // Filter: a time range from today picked with the date picker, then order types; a type
    // with no records shows the empty state, and Reset brings everything back.
    await wallet.openFilter();
    await wallet.pickDate('Start date');
    const ranged = page.waitForResponse((response) => /\/api\/transfer-records\?.*from=/.test(response.url()));
    await wallet.filterForm.getByRole('button', { name: 'Confirm', exact: true }).click();
    expect((await ranged).status()).toBe(200);
    await expect.poll(() => wallet.records.getByRole('listitem').count()).toBe(2);
    await wallet.filterByType('Withdraw');
    await expect.poll(() => wallet.records.getByRole('listitem').count()).toBe(1);
    await wallet.filterByType('Recharge');
    await wallet.recordsSection.getByText('No records yet').waitFor();
    await wallet.openFilter();
    await wallet.filterForm.getByRole('button', { name: 'Reset', exact: true }).click();
    await wallet.filterForm.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect.poll(() => wallet.records.getByRole('listitem').count()).toBe(2);

    // Logout, at the bottom of My (from the wallet by the tab bar): storage cleared, then back to the exchange.
    await new TabBar(page).open('My');
    await new MyPage(page, server.baseUrl).logoutButton.click();
    await page.getByText('Logged out successfully, re-authorizing').waitFor();
    expect(await storedCookie(page, 'token')).toBeUndefined();
    await new ExchangeSignInPage(page).waitFor();

    expect(errors).toEqual([]);
    expect(operator.errors).toEqual([]);
  });
});
