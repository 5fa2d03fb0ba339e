import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UserInfoData } from '../contract/team.ts';
import { EarnPage } from './pages/EarnPage.ts';
import { callApi } from './support/api.ts';
import { launchBrowser, phonePage } from './support/browser.ts';
import { signInThroughExchange, storedCookie } from './support/flows.ts';
import { type RunningServer, startServer } from './support/server.ts';
import { troubleIn } from './support/serverLog.ts';

const SHOTS = '/tmp/bind';
const SMALL = { width: 320, height: 568 };
const PHONE = { width: 390, height: 844 };

const text = async (locator: { textContent: () => Promise<string | null> }) => (await locator.textContent())?.trim() ?? '';
const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
/** A dialog's screenshot once it and its mask have faded in (antd-mobile animates them from script). */
const settledDialog = (page: Page) =>
  expect
    .poll(() =>
      page.evaluate(() => {
        const faded: Element[] = [...document.querySelectorAll('.adm-dialog .adm-mask')];
        for (let el = document.querySelector('.adm-dialog-body'); el; el = el.parentElement) faded.push(el);
        return faded.length > 1 && faded.every((el) => getComputedStyle(el).opacity === '1');
      }),
    )
    .toBe(true);

/**
 * Binding with confidence (issue 44): a holder who came without an invitation link is told where
 * a code comes from; one's own code, an unknown one and one that is no code at all each get their
 * own message; the platform's code (DEFAULT_INVITE_CODE) is offered once an account holds it; the
 * confirmation says whose code it is before "cannot be changed later".
 */
describe('binding an inviter with confidence at 390x844 (and 320x568 in English and Indonesian)', () => {
  // One database for both starts: the operator's account is made, then the platform's code is set
  // to its code and the server restarted, as an operator would.
  const dataDir = mkdtempSync(join(tmpdir(), 'aic-e2e-bind-'));
  const env = { LOG_LEVEL: 'info', OPERATOR_USER_IDS: '1', DATA_DIR: dataDir };
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    // A well-formed code no account holds yet: the start takes it (its form is all it checks).
    server = await startServer({ ...env, DEFAULT_INVITE_CODE: 'ZZZZ2222' });
    browser = await launchBrowser();
  });
  beforeEach(({ onTestFailed }) => {
    onTestFailed(() => {
      const trouble = troubleIn(server?.logs() ?? '');
      if (trouble.length) console.error(`what the server refused or logged (the last 40):\n${trouble.slice(-40).join('\n')}`);
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('explains where a code comes from, refuses each wrong code by its own message, and binds the platform code showing whose it is', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const api = <T>(path: string, token: string, body?: object) => callApi<T>(server.baseUrl, path, token, body);

    // Olga, the operator, signs in first (user 1): her account's code becomes the platform's.
    const operator = await phonePage(browser, 'en-US');
    await signInThroughExchange(operator.page, server.baseUrl, { create: 'Olga' });
    const olga = await api<UserInfoData>('/api/user/info', (await storedCookie(operator.page, 'token')) as string);
    expect(olga.userId).toBe('1');

    // Ava comes without an invitation link: the centre asks for a code and says how to get one.
    const { page, errors } = await phonePage(browser, 'en-US');
    await signInThroughExchange(page, server.baseUrl, { create: 'Ava' });
    const avaToken = (await storedCookie(page, 'token')) as string;
    const ava = await api<UserInfoData>('/api/user/info', avaToken);
    const earn = new EarnPage(page, server.baseUrl);
    await earn.goto();
    await earn.bindInput('Current').waitFor();
    expect(await earn.bindInput('Current').inputValue()).toBe('');
    expect(await text(earn.bindHowTo('Current'))).toBe(
      'No code? Ask the holder who invited you for their invitation link: opening it fills their code in.',
    );
    // The platform's code names no account yet: nothing to offer.
    expect(await earn.platformCodeButton('Current').count()).toBe(0);

    // Her own code, an unknown code and "abcd": three refusals, three messages, no dialog.
    const refusals: [string, string][] = [
      [ava.inviteCode, "That is your own invitation code. Enter your inviter's code."],
      ['ZZZZ2222', 'No holder has this invitation code. Check it with your inviter.'],
      ['abcd', 'Not an invitation code: a code is 8 letters and digits.'],
    ];
    for (const [code, message] of refusals) {
      await earn.submitBind('Current', code);
      await expect.poll(() => text(earn.bindError('Current'))).toBe(message);
      expect(await earn.confirmDialog.count()).toBe(0);
    }
    await page.setViewportSize(SMALL);
    await earn.bindStep('Current').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/en-320-refused.png` });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(SMALL.width);

    // The operator sets DEFAULT_INVITE_CODE to Olga's code and restarts the server (same port,
    // same database: Ava's session lives on).
    const port = server.port;
    await server.stop();
    server = await startServer({ ...env, PORT: String(port), DEFAULT_INVITE_CODE: olga.inviteCode });

    // 320x568, English: the step offers the platform's code (a reload: the app starts again).
    await page.reload();
    await earn.heading.waitFor();
    await earn.platformCodeButton('Current').waitFor();
    await earn.bindStep('Current').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/en-320-bind-step.png` });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(SMALL.width);

    // Taking it fills it in and asks to confirm, saying whose code it is before "cannot be changed later".
    await earn.platformCodeButton('Current').click();
    await earn.confirmDialog.waitFor();
    expect(await earn.bindInput('Current').inputValue()).toBe(olga.inviteCode);
    expect(await text(earn.inviterName)).toBe('Olga');
    expect(await text(earn.inviterUid)).toBe('****1');
    const dialog = await text(earn.confirmDialog);
    expect(dialog).toContain(`Bind the invitation code ${olga.inviteCode}? It cannot be changed later.`);
    expect(dialog.indexOf('Olga')).toBeLessThan(dialog.indexOf('cannot be changed later'));
    expect(dialog.indexOf('****1')).toBeLessThan(dialog.indexOf('cannot be changed later'));
    await settledDialog(page);
    await page.screenshot({ path: `${SHOTS}/en-320-confirm.png` });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(SMALL.width);
    await earn.cancel();

    // 320x568, Indonesian: the same step and confirmation in its words.
    await page.context().addCookies([{ name: 'aic_earn_lang', value: 'Indonesia', url: server.baseUrl }]);
    await page.reload();
    const step = page.getByRole('group', { name: 'Ikat pengundang Anda' });
    const take = step.getByRole('button', { name: 'Atau gunakan kode platform', exact: true });
    await take.waitFor();
    expect(await text(step.getByText(/^Belum punya kode\?/))).toBe(
      'Belum punya kode? Mintalah tautan undangan kepada orang yang mengundang Anda: membukanya akan mengisi kodenya secara otomatis.',
    );
    await step.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/id-320-bind-step.png` });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(SMALL.width);
    await take.click();
    const konfirmasi = page.getByRole('dialog', { name: 'Mohon konfirmasi' });
    await konfirmasi.waitFor();
    expect(await text(konfirmasi.getByTestId('inviter-name'))).toBe('Olga');
    expect(await text(konfirmasi)).toContain(`Ikat kode undangan ${olga.inviteCode}? Kode ini tidak dapat diubah nanti.`);
    await settledDialog(page);
    await page.screenshot({ path: `${SHOTS}/id-320-confirm.png` });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(SMALL.width);
    await konfirmasi.getByRole('button', { name: 'Batal', exact: true }).click();
    await konfirmasi.waitFor({ state: 'hidden' });

    // Back in English on the phone's own size, Ava binds the platform's code for good.
    await page.context().addCookies([{ name: 'aic_earn_lang', value: 'en', url: server.baseUrl }]);
    await page.setViewportSize(PHONE);
    await page.reload();
    await earn.heading.waitFor();
    await earn.platformCodeButton('Current').click();
    await earn.confirmDialog.waitFor();
    expect(await text(earn.inviterName)).toBe('Olga');
    await earn.confirm();
    await page.getByText('Binding successful').waitFor();
    await earn.amountInput('Current').waitFor();
    expect(await api<UserInfoData>('/api/user/info', avaToken)).toMatchObject({ inviterBound: true, inviterCode: olga.inviteCode });
    expect(errors).toEqual([]);
  });
});
