import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { paramLabelKey } from '../contract/labels.ts';
import { PARAM_NAMES } from '../contract/operator.ts';
import { HomePage } from './pages/HomePage.ts';
import { OperatorPage } from './pages/OperatorPage.ts';
import { WalletPage } from './pages/WalletPage.ts';
import { phonePage } from './support/browser.ts';
import { signInThroughExchange, storedCookie } from './support/flows.ts';
import { failLedgerCheck, recordOperatorCalls, screenshotTabs } from './support/operator.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

/** The English label of a parameter's row, from the locale file. */
const EN = JSON.parse(readFileSync(new URL('../web/src/i18n/locales/en.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const englishLabel = (name: string): string =>
  (paramLabelKey(name) ?? name).split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], EN) as string;

const text = async (locator: { textContent: () => Promise<string | null> }) => (await locator.textContent())?.trim() ?? '';

describe('operator console at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ OPERATOR_USER_IDS: '1' }, (run) => ({ server, browser } = run));

  it('reviews two withdrawals: approve one, reject one with a reason; the holder sees both and the books balance', async () => {
    // The operator signs in first, in her own context, so she is user 1.
    const olga = await phonePage(browser, 'en-US');
    await signInThroughExchange(olga.page, server.baseUrl, { create: 'Olga' });
    expect(await storedCookie(olga.page, 'userId')).toBe('1');
    const desk = new OperatorPage(olga.page, server.baseUrl);
    await desk.homeEntry.waitFor();

    // The holder moves 1,000 AIC in and asks to withdraw 200 and 300 AIC.
    const hana = await phonePage(browser, 'en-US');
    const hanaOperatorCalls = recordOperatorCalls(hana.page);
    await signInThroughExchange(hana.page, server.baseUrl, { create: 'Hana' });
    expect(await storedCookie(hana.page, 'userId')).toBe('2');
    const wallet = new WalletPage(hana.page, server.baseUrl);
    await wallet.goto();
    const moves = [['Transfer in', '1000', 'Operation successful'], ['Withdraw', '200', 'Submitted for review'], ['Withdraw', '300', 'Submitted for review']] as const;
    for (const [move, amount, done] of moves) {
      await wallet.openMove(move);
      await wallet.submit(move, amount);
      await wallet.confirm();
      await hana.page.getByText(done).waitFor();
      await wallet.form(move).waitFor({ state: 'hidden' });
    }
    expect(await text(wallet.balance('AIC', 'Available'))).toBe('500.00');
    await expect.poll(() => text(wallet.balance('AIC', 'Under review'))).toBe('500.00');

    // A holder who opens the console is told no, and the app asks the server nothing for her.
    const hanaConsole = new OperatorPage(hana.page, server.baseUrl);
    await hanaConsole.goto();
    await hanaConsole.denied.waitFor();
    expect(await hanaConsole.tab('Reviews').count()).toBe(0);
    // Home knows she is no operator (user info is loaded): no way in.
    await new HomePage(hana.page, server.baseUrl).goto();
    await hana.page.getByTestId('total-amount').waitFor();
    expect(await hanaConsole.homeEntry.count()).toBe(0);
    expect(hanaOperatorCalls).toEqual([]);

    // The operator opens the console from home: both requests wait in the queue.
    await desk.homeEntry.click();
    await desk.heading.waitFor();
    await expect.poll(() => desk.reviews.getByRole('listitem').count()).toBe(2);
    await olga.page.screenshot({ path: '/tmp/operator-en-0-queue.png', fullPage: true });
    const first = await text(desk.review('200.00'));
    expect(first).toContain('Withdraw');
    expect(first).toContain('UID 2');
    expect(first).toMatch(/\d{4}-\d{2}-\d{2}, \d{2}:\d{2}:\d{2}/);

    // Approve the 200: a confirmation names the request first.
    const question = await desk.approve('200.00');
    expect(question).toContain('Approve this request? Withdraw · 200.00 AIC · UID 2.');
    await expect.poll(() => desk.reviews.getByRole('listitem').count()).toBe(1);

    // Reject the 300: the dialog wants a reason before anything is sent.
    await desk.openReject('300.00');
    expect(await text(desk.rejectDialog)).toContain('Reject this request? Withdraw · 300.00 AIC · UID 2.');
    await desk.submitReject();
    expect(await text(desk.rejectDialog.getByRole('alert'))).toBe('Please enter a reason');
    await olga.page.screenshot({ path: '/tmp/operator-en-0-reject.png' });
    await desk.submitReject('Destination address not verified');
    await desk.done();
    await desk.rejectDialog.waitFor({ state: 'hidden' });
    await desk.reviewQueue.getByText('Nothing to review').waitFor();

    // The holder's records: the rejected one says it was returned, with its reason, and reads as
    // no debit; the approved one succeeded; the rejected 300 is back, so 1,000 - 200 = 800 is available.
    await wallet.goto();
    await hana.page.reload();
    await wallet.heading.waitFor();
    await expect.poll(() => wallet.records.getByRole('listitem').count()).toBe(3);
    const rejected = await text(wallet.record(0));
    expect(rejected).toContain('300.00');
    expect(rejected).not.toContain('-300.00');
    expect(rejected).toContain('Returned');
    expect(await wallet.record(0).locator('.record__amount--out').count()).toBe(0);
    expect(rejected).toContain('Reason: Destination address not verified');
    const approved = await text(wallet.record(1));
    expect(approved).toContain('-200.00');
    expect(approved).toContain('Success');
    expect(await text(wallet.balance('AIC', 'Available'))).toBe('800.00');
    expect(await text(wallet.balance('AIC', 'Under review'))).toBe('0.00');

    // The audit log lists both actions, newest first, with who and why.
    await desk.openTab('Audit log');
    await expect.poll(() => desk.auditLog.getByRole('listitem').count()).toBe(2);
    const rejection = await text(desk.auditEntry(0));
    expect(rejection).toContain('Rejected');
    expect(rejection).toContain('Reason: Destination address not verified');
    expect(rejection).toContain('By UID 1');
    const approval = await text(desk.auditEntry(1));
    expect(approval).toContain('Approved');
    expect(approval).toContain('Amount: 200');

    // The ledger check is green: every asset sums to zero, no balance is negative.
    await desk.openTab('Ledger');
    await desk.verdict.waitFor();
    expect(await text(desk.verdict.locator('p').first())).toBe('Books balance');
    expect(await desk.verdict.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(10, 158, 110)');
    expect(await text(desk.ledgerFigure('AIC total of all accounts'))).toBe('0');
    expect(await text(desk.ledgerFigure('Negative user balances'))).toBe('0');

    // Funding the treasury is asked here and approved by another operator: nothing moves yet.
    const treasuryBefore = await text(desk.ledgerFigure('Treasury'));
    await desk.openTab('Fund');
    await desk.fund('Treasury', 'AIC', '1000');
    expect(await text(desk.confirmDialog)).toContain('Ask to add 1,000.00 AIC to the Treasury? Another operator must approve it.');
    await desk.confirm();
    await desk.done();
    await desk.fundForm.getByRole('status').getByText('Asked to add 1,000.00 AIC to the Treasury: another operator must approve it.').waitFor();
    await olga.page.getByText('You asked for this funding: another operator must approve it').waitFor();
    await desk.openTab('Ledger');
    expect(await text(desk.ledgerFigure('Treasury'))).toBe(treasuryBefore);

    // An earn term is scheduled with notice: it defaults to the earliest allowed day and shows as scheduled.
    await desk.openTab('Parameters');
    await desk.scheduleParam('Minimum subscription (AIC)', '1');
    expect(await text(desk.confirmDialog)).toMatch(/^Please confirm.*Set Minimum subscription \(AIC\) to 1 from \d{4}-\d{2}-\d{2}\?/);
    await desk.confirm();
    await desk.done();
    await expect.poll(() => text(desk.param('Minimum subscription (AIC)'))).toMatch(/earn\.minimum.*1 from \d{4}-\d{2}-\d{2}/);

    // Settlement of everything due reports the server's time.
    await desk.openTab('Settlement');
    await desk.settlement.getByRole('button', { name: 'Settle everything due', exact: true }).click();
    await desk.confirm();
    await desk.done();
    await desk.settleResult.getByText(/^Server time now: /).waitFor();

    // The demo clock moves two days on (no orders: nothing is due); then the day just finished
    // is settled by hand and reported, and shows among the ledger's recent days.
    const before = await text(desk.settleResult.getByText(/^Server time now: /));
    await desk.advanceClock(2);
    await desk.confirm();
    await desk.done();
    await expect.poll(() => text(desk.settleResult.getByText(/^Server time now: /))).not.toBe(before);
    const day = await desk.settlement.getByRole('button', { name: /^Day \(UTC\)/ }).textContent();
    const yesterday = /\d{4}-\d{2}-\d{2}/.exec(day ?? '')?.[0] ?? '';
    expect(yesterday > new Date().toISOString().slice(0, 10)).toBe(true);
    await desk.settlement.getByRole('button', { name: 'Settle this day', exact: true }).click();
    expect(await text(desk.confirmDialog)).toContain(`Settle ${yesterday}?`);
    await desk.confirm();
    await desk.done();
    const report = desk.settleResult.getByRole('listitem', { name: yesterday });
    await report.waitFor();
    expect(await text(report)).toContain('Done');
    await desk.openTab('Ledger');
    await desk.settlementDays.getByRole('listitem').filter({ hasText: yesterday }).waitFor();
    expect(await text(desk.verdict.locator('p').first())).toBe('Books balance');

    // Every action is in the audit log.
    await desk.openTab('Audit log');
    await expect.poll(() => desk.auditLog.getByRole('listitem').count()).toBe(7);
    expect(await text(desk.auditEntry(0))).toContain('Settlement run');
    expect(await text(desk.auditEntry(1))).toContain('Clock advanced');

    // A failing check is red (the answer is altered on its way: the real books do balance).
    const restore = await failLedgerCheck(desk.page);
    await desk.page.reload();
    await desk.openTab('Ledger');
    await desk.verdict.getByText('Check failed').waitFor();
    expect(await desk.verdict.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(217, 54, 62)');
    expect(await text(desk.ledger.getByText('Not covered'))).toBe('Not covered');
    await desk.page.screenshot({ path: '/tmp/operator-en-ledger-failed.png', fullPage: true });
    await restore();
    await desk.page.reload();
    await desk.heading.waitFor();

    // Screenshots of every tab, in English and in Simplified Chinese.
    await screenshotTabs(desk.page, '/tmp/operator-en');
    const home = new HomePage(olga.page, server.baseUrl);
    await home.goto();
    await home.languageButton('English').click();
    await home.languagePanel.getByRole('button', { name: '简体中文', exact: true }).click();
    await home.languagePanel.waitFor({ state: 'hidden' });
    await olga.page.screenshot({ path: '/tmp/operator-home-zh-cn.png', fullPage: true });
    await olga.page.getByRole('button', { name: '运营控制台', exact: true }).click();
    await olga.page.getByRole('heading', { level: 1, name: '运营控制台' }).waitFor();
    await olga.page.getByRole('tab', { name: '审核', exact: true }).waitFor();
    await screenshotTabs(desk.page, '/tmp/operator-zh-cn');
    await hanaConsole.goto();
    await hanaConsole.denied.waitFor();
    await hana.page.screenshot({ path: '/tmp/operator-denied-en.png', fullPage: true });

    expect(olga.errors).toEqual([]);
    expect(hana.errors).toEqual([]);
  });

  it('the parameters tab shows the value in force of every row, and each field its own placeholder', async () => {
    // Olga (user 1, from the journey above) signs in again on another phone.
    const olga = await phonePage(browser, 'en-US');
    await signInThroughExchange(olga.page, server.baseUrl, { pick: 'Olga' });
    const desk = new OperatorPage(olga.page, server.baseUrl);
    await desk.goto();
    await desk.openTab('Parameters');
    await expect.poll(() => desk.paramsList.getByRole('listitem').count()).toBe(PARAM_NAMES.length);

    // Every row has a value in force and says from when: no row is only "Configuration default".
    for (const name of PARAM_NAMES) {
      const label = englishLabel(name);
      expect(await text(desk.paramValue(label)), label).not.toBe('');
      expect(await text(desk.paramSince(label)), label).toMatch(/^(Configuration default|first version, from the configuration|since \d{4}-\d{2}-\d{2})$/);
    }
    // Never stored: the configured default, with its value.
    expect(await text(desk.paramValue('AIC price (USD)'))).toBe('0.85');
    expect(await text(desk.paramSince('AIC price (USD)'))).toBe('Configuration default');
    expect(await text(desk.paramValue('Current: daily rate'))).toBe('0.1%');
    expect(await text(desk.paramValue('30 days: daily rate'))).toBe('0.3%');
    // Seeded at start-up: the team rules' first version.
    expect(await text(desk.paramValue('Team: lock-up (days)'))).toBe('10');
    expect(await text(desk.paramSince('Team: lock-up (days)'))).toBe('first version, from the configuration');
    // The minimum scheduled above is not in force yet: today's value stays, the change is listed.
    expect(await text(desk.paramValue('Minimum subscription (AIC)'))).toBe('1');
    expect(await text(desk.param('Minimum subscription (AIC)'))).toMatch(/1 from \d{4}-\d{2}-\d{2}/);

    // The New value field shows the picked parameter's own value in force, not one number for all.
    const price = await desk.paramPlaceholder('AIC price (USD)');
    const rate = await desk.paramPlaceholder('30 days: daily rate');
    expect(price).toBe('0.85');
    expect(rate).toBe('0.003');
    expect(await desk.paramPlaceholder('360 days: launch day')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await desk.paramPlaceholder('AIC price (USD)');
    await olga.page.screenshot({ path: '/tmp/operator-params-in-force.png', fullPage: true });
    await desk.paramForm.scrollIntoViewIfNeeded();
    await olga.page.screenshot({ path: '/tmp/operator-params-placeholder-price.png' });
    await desk.paramPlaceholder('30 days: daily rate');
    await olga.page.screenshot({ path: '/tmp/operator-params-placeholder-rate.png' });
    await desk.param('AIC price (USD)').scrollIntoViewIfNeeded();
    await olga.page.screenshot({ path: '/tmp/operator-params-top.png' });
    expect(olga.errors).toEqual([]);
  });
});
