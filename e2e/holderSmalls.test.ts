import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EarnPage } from './pages/EarnPage.ts';
import { MyPage } from './pages/MyPage.ts';
import { WalletPage } from './pages/WalletPage.ts';
import { phonePage } from './support/browser.ts';
import { operatorAndInvitee } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

const text = async (locator: { textContent: () => Promise<string | null> }) => (await locator.textContent())?.trim();

type PullTexts = { pulling: string; canRelease: string; complete: string };
const pullTexts = (file: string) =>
  (JSON.parse(readFileSync(new URL(`../web/src/i18n/locales/${file}.json`, import.meta.url), 'utf8')) as { pullToRefresh: PullTexts })
    .pullToRefresh;
/** antd-mobile's English pull-to-refresh texts, which Hindi screens showed before. */
const ANTD_ENGLISH = ['Scroll down to refresh', 'Release to refresh immediately', 'Refresh successful'];

/** Each word of the text inside `selector` sits on one line: no word is broken across two. */
const wordsBrokenIn = (page: Page, selector: string) =>
  page.evaluate((selector) => {
    const element = document.querySelector(selector);
    const broken: string[] = [];
    const walker = document.createTreeWalker(element ?? document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const value = node.textContent ?? '';
      for (const match of value.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
    return element ? broken : ['(no toast)'];
  }, selector);

describe('small things a holder meets (issue 44, point 10) at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ OPERATOR_USER_IDS: '1' }, (run) => ({ server, browser } = run));

  it('disables Claim at zero, says it subscribed, tells the four moves apart, and pulls to refresh in Hindi', async () => {
    const { holder } = await operatorAndInvitee(browser, server.baseUrl);
    const { page, errors } = holder;

    // The four wallet moves each say what they are for, in four different texts.
    const wallet = new WalletPage(page, server.baseUrl);
    await wallet.goto();
    const hints: string[] = [];
    for (const move of ['Recharge', 'Transfer in', 'Withdraw', 'Transfer out']) {
      await wallet.openMove(move);
      hints.push((await text(wallet.moveHint(move))) ?? '');
      await wallet.closeMove(move);
    }
    expect(hints.every((hint) => hint.length > 0)).toBe(true);
    expect(new Set(hints).size).toBe(4);
    expect(hints[0]).toContain('Recorded as a recharge');
    expect(hints[1]).toContain('Recorded as a transfer in');
    expect(hints[2]).toContain('Recorded as a withdrawal');
    expect(hints[3]).toContain('Recorded as a transfer out');

    await wallet.openMove('Transfer in');
    await page.screenshot({ path: '/tmp/holderSmalls-transfer-in.png' });
    await wallet.submit('Transfer in', '2000');
    await wallet.confirm();
    await page.getByText('Operation successful').waitFor();

    // Nothing is claimable yet: each Claim is disabled, on the centre, on My and on Rebate.
    const earn = new EarnPage(page, server.baseUrl);
    await earn.goto();
    await earn.rewardsAmount.waitFor();
    expect(await text(earn.rewardsAmount)).toBe('0.00 AIC');
    expect(await earn.claimButton.isDisabled()).toBe(true);

    // A subscription says it was subscribed.
    await earn.amountInput('Current').waitFor();
    await earn.submit('Current', '100');
    expect(await text(earn.confirmDialog)).toContain('Subscribe 100.00 AIC to Current?');
    await earn.confirm();
    await page.getByText('Subscription successful').waitFor();
    expect(await page.getByText('Payment successful').count()).toBe(0);

    const my = new MyPage(page, server.baseUrl);
    await my.goto();
    await my.networkClaimable.waitFor();
    expect(await text(my.networkClaimable)).toBe('0.00 AIC');
    expect(await my.networkClaimButton.isDisabled()).toBe(true);
    expect(await my.rewardsClaimButton.isDisabled()).toBe(true);
    await my.openRebate();
    await my.networkClaimable.waitFor();
    expect(await my.networkClaimButton.isDisabled()).toBe(true);
    expect(errors).toEqual([]);

    // On a small phone (320x568) a long refusal wraps between words ("insufficie/nt" before).
    // The server's envelope for a claim with nothing claimable, answered here to a subscription.
    const small = await page.context().browser()?.newContext({ viewport: { width: 320, height: 568 }, locale: 'en-US', isMobile: true, hasTouch: true, deviceScaleFactor: 2, storageState: await page.context().storageState() });
    const smallPage = (await small?.newPage()) as Page;
    await smallPage.route('**/api/product/buy', (route) =>
      route.fulfill({ status: 422, contentType: 'application/json', body: JSON.stringify({ code: 106, msg: 'Failed to claim, insufficient quantity available', data: null }) }),
    );
    const smallEarn = new EarnPage(smallPage, server.baseUrl);
    await smallEarn.goto();
    await smallEarn.submit('Current', '10');
    await smallEarn.confirm();
    const toast = smallPage.locator('.adm-toast-main');
    await toast.getByText('Failed to claim, insufficient quantity available').waitFor();
    await smallPage.screenshot({ path: '/tmp/holderSmalls-toast-320.png' });
    expect(await wordsBrokenIn(smallPage, '.adm-toast-main')).toEqual([]);
    const box = await toast.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 320).toBe(true);
    await small?.close();

    // Hindi: the pull-to-refresh texts are Hindi, not antd-mobile's English; every language has its own.
    const hindi = pullTexts('Hindi');
    const english = pullTexts('en');
    for (const file of ['zh-cn', 'ft', 'Japan', 'Korean', 'Thai', 'Vietnamese', 'Indonesia', 'Hindi']) {
      const own = pullTexts(file);
      for (const key of ['pulling', 'canRelease', 'complete'] as const) {
        expect(own[key], `${file} ${key}`).not.toBe(english[key]);
        expect(ANTD_ENGLISH).not.toContain(own[key]);
      }
    }
    const hindiPhone = await phonePage(browser, 'hi-IN');
    await hindiPhone.page.context().addCookies((await page.context().cookies()).filter((c) => c.name !== 'aic_earn_lang'));
    await hindiPhone.page.goto(`${server.baseUrl}/#/my`);
    const head = hindiPhone.page.locator('.adm-pull-to-refresh-head-content');
    await expect.poll(() => text(head)).toBe(hindi.pulling);
    expect(ANTD_ENGLISH).not.toContain(await text(head));
    expect(hindiPhone.errors).toEqual([]);
    await hindiPhone.page.context().close();
  });
});
