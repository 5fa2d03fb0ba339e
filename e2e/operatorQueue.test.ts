import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PATHS } from '../contract/paths.ts';
import { OperatorPage } from './pages/OperatorPage.ts';
import { callApi } from './support/api.ts';
import { phonePage } from './support/browser.ts';
import { signInThroughExchange, storedCookie } from './support/flows.ts';
import { signInOverHttp } from './support/httpSignIn.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

const text = async (locator: { textContent: () => Promise<string | null> }) => (await locator.textContent())?.trim() ?? '';

describe('operator review queue at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ OPERATOR_USER_IDS: '1' }, (run) => ({ server, browser } = run));

  it('pages with Load more, filters by holder, and marks the operator’s own request', async () => {
    const olga = await phonePage(browser, 'en-US');
    await signInThroughExchange(olga.page, server.baseUrl, { create: 'Olga' });
    expect(await storedCookie(olga.page, 'userId')).toBe('1');
    const olgaToken = (await storedCookie(olga.page, 'token')) as string;
    const hana = await signInOverHttp(server.baseUrl, { name: 'Hana' });
    const ivo = await signInOverHttp(server.baseUrl, { name: 'Ivo' });
    const move = (token: string, path: string, amount: string) => callApi(server.baseUrl, path, token, { asset: 'AIC', amount });

    // Olga's own withdrawal first, then 20 of Hana's and 5 of Ivo's: 26, more than a page of 20.
    await move(olgaToken, PATHS.transferIn, '100');
    await move(olgaToken, PATHS.withdraw, '7');
    for (const token of [hana.token, ivo.token]) await move(token, PATHS.transferIn, '5000');
    for (let i = 1; i <= 20; i++) await move(hana.token, i % 2 ? PATHS.withdraw : PATHS.transferOut, String(10 + i));
    for (let i = 1; i <= 5; i++) await move(ivo.token, PATHS.withdraw, String(100 + i));

    const desk = new OperatorPage(olga.page, server.baseUrl);
    await desk.goto();
    const items = desk.reviews.getByRole('listitem');
    await expect.poll(() => items.count()).toBe(20);
    expect(await text(desk.reviewQueue.locator('.op-count'))).toBe('20+');

    // Her own request is marked, and neither button works on it.
    const own = desk.review('7.00');
    expect(await text(own)).toContain('Your own request: another operator must review it');
    expect(await own.getByRole('button', { name: 'Approve', exact: true }).isDisabled()).toBe(true);
    expect(await own.getByRole('button', { name: 'Reject', exact: true }).isDisabled()).toBe(true);
    expect(await desk.review('11.00').getByRole('button', { name: 'Approve', exact: true }).isDisabled()).toBe(false);

    // Load more brings the rest, oldest first; then there is nothing more to load.
    const more = desk.reviewQueue.getByRole('button', { name: 'Load more', exact: true });
    await more.click();
    await expect.poll(() => items.count()).toBe(26);
    await more.waitFor({ state: 'detached' });
    expect(await text(items.last())).toContain(`UID ${ivo.userId}`);
    expect(await text(desk.reviewQueue.locator('.op-count'))).toBe('26');

    // A UID that is not digits is refused before anything is asked.
    const uid = desk.reviewQueue.getByRole('textbox', { name: 'Holder UID' });
    await uid.fill('abc');
    await desk.reviewQueue.getByRole('button', { name: 'Filter', exact: true }).click();
    expect(await text(desk.reviewQueue.getByRole('alert'))).toBe('Enter a UID: digits only');

    // One holder's requests only.
    await uid.fill(ivo.userId);
    await desk.reviewQueue.getByRole('button', { name: 'Filter', exact: true }).click();
    await desk.reviewQueue.getByRole('status').getByText(`Requests of UID ${ivo.userId}`).waitFor();
    await expect.poll(() => items.count()).toBe(5);
    for (const line of await items.allTextContents()) expect(line).toContain(`UID ${ivo.userId}`);
    await olga.page.screenshot({ path: '/tmp/operator-queue-filtered.png', fullPage: true });

    // Show all: everyone's again, the pages loaded before included.
    await desk.reviewQueue.getByRole('button', { name: 'Show all', exact: true }).click();
    await expect.poll(() => items.count()).toBe(26);
    expect(await desk.reviewQueue.getByRole('status').count()).toBe(0);
    expect(olga.errors).toEqual([]);
  });
});
