import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi } from './support/api.ts';
import { operatorAndInvitee } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

const text = async (locator: { textContent: () => Promise<string | null> }) => (await locator.textContent())?.trim();

describe('the notification centre at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ OPERATOR_USER_IDS: '1', CLOCK_START: '2026-11-20T08:00:00Z' }, (run) => ({ server, browser } = run));
  const api = <T>(path: string, token: string, body?: object) => callApi<T>(server.baseUrl, path, token, body);

  it('shows the unread count on the bell, lists the day’s income under its day with the holder’s own moves, a change of terms and a new member, and opening one lands on it', async () => {
    // Hana's bind of Olga's code tells Olga; two settled days tell Hana one income notice (11-21).
    const { operator, olgaToken, holder, home, token } = await operatorAndInvitee(browser, server.baseUrl);
    const { page, errors } = holder;
    await api('/api/transfer-in', token, { asset: 'AIC', amount: '2000' });
    await api('/api/product/buy', token, { product: 'fixed30', amount: '1000' });
    await api('/api/operator/clock/advance', olgaToken, { days: 2 });

    await page.reload();
    const bell = home.page.getByRole('link', { name: 'Notifications, 1 unread' });
    await bell.waitFor();
    expect(await text(bell)).toBe('1');
    await page.screenshot({ path: '/tmp/notifications-home.png' });
    await bell.click();

    const list = page.getByRole('list', { name: 'Your notifications' });
    // The notices under a heading per day; each notice is a list item with a button.
    const notices = list.getByRole('listitem').filter({ has: page.getByRole('button') });
    const item = notices.first();
    await item.waitFor();
    expect(await text(item)).toMatch(/^Income credited3\.00 AIC credited for 2026-11-21/);
    expect(await item.getByRole('img', { name: 'Unread' }).count()).toBe(1);
    // Hana's own moves two days before, under that day's heading, read: no badge for what she did.
    expect(await list.getByRole('heading').allTextContents()).toEqual(['Today', expect.stringMatching(/20/)]);
    expect(await notices.allTextContents()).toEqual([
      expect.stringMatching(/^Income credited/),
      expect.stringMatching(/^Subscribed1,000\.00 AIC subscribed to 30 days, order \d+/),
      expect.stringMatching(/^Money inTransfer in of 2,000\.00 AIC credited to your wallet/),
    ]);
    expect(await list.getByRole('img', { name: 'Unread' }).count()).toBe(1);
    await page.screenshot({ path: '/tmp/notifications-list.png' });
    await item.getByRole('button').click();
    await page.waitForURL(/#\/income$/);

    // Back on the wallet: the bell has nothing unread.
    await page.goto(`${server.baseUrl}/#/wallet`);
    await page.getByRole('link', { name: 'Notifications', exact: true }).waitFor();

    // Olga announces a new 30-day rate with its notice: Hana holds an order, so she is told; the
    // notice opens the rate history. Looked at on the smallest phone too.
    await api('/api/operator/params', olgaToken, { name: 'earn.fixed30.daily_rate', value: '0.004', effectiveDay: '2026-12-01' });
    await page.goto(`${server.baseUrl}/#/notifications`);
    await page.reload();
    const change = notices.first();
    await expect.poll(() => text(change)).toMatch(/^Change of terms announced.+ becomes 0\.4% from 2026-12-01/);
    await page.setViewportSize({ width: 320, height: 568 });
    await page.screenshot({ path: '/tmp/notifications-terms-320.png' });
    await change.getByRole('button').click();
    await page.waitForURL(/#\/rates$/);
    await page.setViewportSize({ width: 390, height: 844 });

    // Olga's bell on the centre: the new member; Mark all as read empties the count.
    await operator.page.goto(`${server.baseUrl}/#/center`);
    await operator.page.getByRole('link', { name: 'Notifications, 1 unread' }).click();
    const olgaList = operator.page.getByRole('list', { name: 'Your notifications' });
    await expect.poll(() => text(olgaList.getByRole('listitem').filter({ has: operator.page.getByRole('button') }).first())).toMatch(
      /New team memberHana joined your team with your invitation code/,
    );
    await operator.page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect.poll(() => olgaList.getByRole('img', { name: 'Unread' }).count()).toBe(0);
    expect(errors).toEqual([]);
    expect(operator.errors).toEqual([]);
  });
});
