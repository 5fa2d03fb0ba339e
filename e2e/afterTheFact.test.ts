import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi } from './support/api.ts';
import { operatorAndInvitee, storedCookie } from './support/flows.ts';
import { journey } from './support/journey.ts';
import { localeMessage, PHONE_LANGUAGES, PHONE_SIZES } from './support/messages.ts';
import type { RunningServer } from './support/server.ts';

const SHOTS = '/tmp/after-the-fact';
const REASON = 'Destination address not verified';

const text = async (locator: { textContent: () => Promise<string | null> }) => (await locator.textContent())?.trim() ?? '';

/**
 * What a holder is told after the fact (issue 61), in each language the phone journeys speak and
 * at both phone sizes: a withdrawal the operator rejected reads as returned, with its reason, and
 * not as a debit; a session the server no longer knows says so on Home, in the holder's
 * language, before any exchange page.
 */
describe('after the fact: a returned withdrawal and an ended session, in three languages at two sizes', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ OPERATOR_USER_IDS: '1', CLOCK_START: '2026-11-20T08:00:00Z' }, (run) => ({ server, browser } = run));
  const api = <T>(path: string, token: string, body?: object) => callApi<T>(server.baseUrl, path, token, body);

  it('shows a rejected withdrawal as returned with its reason, and an ended session before any exchange page', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const { operator, olgaToken, holder, token } = await operatorAndInvitee(browser, server.baseUrl);
    const { page, errors } = holder;
    await page.bringToFront();
    await api('/api/recharge', token, { asset: 'AIC', amount: '1000' });
    await api('/api/withdraw', token, { asset: 'AIC', amount: '300' });
    const queue = await api<{ items: { id: string }[] }>('/api/operator/reviews', olgaToken);
    const review = queue.items[0]?.id ?? '';
    await api(`/api/operator/reviews/${review}/reject`, olgaToken, { reason: REASON });

    const authorising: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/authorPage')) authorising.push(request.url());
    });
    const record = page.locator('li.record').first();
    for (const language of PHONE_LANGUAGES) {
      await page.context().addCookies([{ name: 'aic_earn_lang', value: language.key, url: server.baseUrl }]);
      for (const size of PHONE_SIZES) {
        const where = `${language.key} at ${size.width}`;
        await page.setViewportSize(size);
        await page.goto(`${server.baseUrl}/#/wallet`);
        await page.reload();
        // The rejected 300: returned, with the operator's reason, and no minus sign.
        await expect.poll(() => text(record), { timeout: 5000 }).toContain(localeMessage(language.file, 'wallet.status.returned'));
        const shown = await text(record);
        expect(shown, where).toContain(localeMessage(language.file, 'wallet.reason', { reason: REASON }));
        expect(shown, where).not.toMatch(/-\s*300/);
        expect(await record.locator('.record__amount--out').count(), where).toBe(0);
        if (size.width === 320) {
          await record.scrollIntoViewIfNeeded();
          await page.screenshot({ path: `${SHOTS}/returned-${language.key}-320.png` });
        }

        // A token the server no longer knows: Home says the session ended, in this language.
        await page.context().addCookies([{ name: 'aic_earn_token', value: `${token.slice(0, -2)}xx`, url: server.baseUrl }]);
        await page.goto(`${server.baseUrl}/#/wallet`);
        await page.reload();
        const ended = page.getByTestId('session-ended');
        await ended.getByText(localeMessage(language.file, 'home.sessionEndedTitle')).waitFor();
        expect(await text(ended), where).toContain(localeMessage(language.file, 'home.sessionEnded'));
        expect(await storedCookie(page, 'token'), where).toBeUndefined();
        const box = await ended.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= size.width, where).toBe(true);
        if (size.width === 320) {
          // The refusal's toast first, then the notice alone.
          await page.locator('.adm-toast-main').waitFor({ state: 'hidden' });
          await page.screenshot({ path: `${SHOTS}/session-ended-${language.key}-320.png` });
        }
        // Signed in again for the next round (the session itself is still valid).
        await page.context().addCookies([{ name: 'aic_earn_token', value: token, url: server.baseUrl }]);
      }
    }
    expect(authorising).toEqual([]);
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
    expect(operator.errors).toEqual([]);
  });
});
