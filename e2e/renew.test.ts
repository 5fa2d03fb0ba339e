import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Order, OrderListData } from '../contract/earn.ts';
import type { UnreadData } from '../contract/notifications.ts';
import { EarnPage } from './pages/EarnPage.ts';
import { callApi } from './support/api.ts';
import { operatorAndInvitee } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

const text = async (locator: { textContent: () => Promise<string | null> }) => (await locator.textContent())?.trim();

describe('auto-renew of a 30-day order at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  // The operator's clock moves 31 days, past the sessions' 30: sessions live on the wall clock,
  // so Hana and the operator stay signed in.
  journey({ OPERATOR_USER_IDS: '1', CLOCK_START: '2026-11-01T08:00:00Z' }, (run) => ({ server, browser } = run));
  const api = <T>(path: string, token: string, body?: object) => callApi<T>(server.baseUrl, path, token, body);

  it('subscribes with auto-renew on, switches it with a confirmation, and at maturity the renewal is told and opens on the new order', async () => {
    const { olgaToken, holder, token } = await operatorAndInvitee(browser, server.baseUrl);
    const { page, errors } = holder;
    await api('/api/transfer-in', token, { asset: 'AIC', amount: '2000' });

    // The 30-day form: auto-renew is off until Hana turns it on; the confirmation says so.
    const earn = new EarnPage(page, server.baseUrl);
    await earn.goto();
    await earn.openTab('30 days');
    const formSwitch = earn.autoRenewSwitch();
    expect(await formSwitch.getAttribute('aria-checked')).toBe('false');
    await formSwitch.click();
    expect(await formSwitch.getAttribute('aria-checked')).toBe('true');
    await earn.amountInput('30 days').fill('1000');
    await page.screenshot({ path: '/tmp/renew-subscribe.png' });
    await earn.submit('30 days');
    expect(await text(earn.confirmDialog)).toContain('Subscribe 1,000.00 AIC to 30 days? At maturity it renews itself.');
    await earn.confirm();
    await page.getByText('Subscription successful').waitFor();
    const [bought] = (await api<OrderListData>('/api/user/product-list?product=fixed30', token)).items as [Order];
    expect(bought).toMatchObject({ autoRenew: true, quantity: '1000' });

    // The 30-day record: the order's switch, off and on again, each confirmed.
    await earn.gotoThirtyDays();
    const card = earn.order('30 days', earn.thirtyDayOrders);
    const cardSwitch = earn.autoRenewSwitch(card);
    await expect.poll(() => cardSwitch.getAttribute('aria-checked')).toBe('true');
    await cardSwitch.click();
    expect(await text(earn.confirmDialog)).toContain('Stop auto-renew? At maturity the order will become redeemable.');
    await earn.confirm();
    await expect.poll(() => cardSwitch.getAttribute('aria-checked')).toBe('false');
    await cardSwitch.click();
    expect(await text(earn.confirmDialog)).toContain('Renew this order at maturity?');
    await earn.confirm();
    await expect.poll(() => cardSwitch.getAttribute('aria-checked')).toBe('true');

    // 31 days on: the days up to 12-01 settle; the order matured and renewed into a new one.
    await api('/api/operator/clock/advance', olgaToken, { days: 31 });
    const renewed = await api<Order>(`/api/user/product?id=${bought.id}`, token);
    expect(renewed).toMatchObject({ status: 'renewed', income: '90' });
    const renewal = renewed.renewedTo as string;
    const { unread } = await api<UnreadData>('/api/notifications/unread', token);
    // One income notice a day (11-02 to 12-01) and the renewal.
    expect(unread).toBe(31);

    await earn.goto();
    const bell = page.getByRole('link', { name: `Notifications, ${unread} unread` });
    await bell.waitFor();
    expect(await text(bell)).toBe(String(unread));
    await bell.click();
    const list = page.getByRole('list', { name: 'Your notifications' });
    const first = list.getByRole('listitem').filter({ has: page.getByRole('button') }).first();
    await expect.poll(() => text(first)).toMatch(/^Income credited3\.00 AIC credited for 2026-12-01/);
    const told = list.getByRole('listitem').filter({ hasText: '30-day order renewed' });
    expect(await text(told)).toMatch(
      new RegExp(`^30-day order renewedOrder ${bought.id}: 1,090\\.00 AIC, its income of 90\\.00 AIC included, renewed as order ${renewal}, earning from 2026-12-02`),
    );
    await page.screenshot({ path: '/tmp/renew-notices.png' });

    // Opening it lands on the new order, first in the 30-day record.
    await told.getByRole('button').click();
    await page.waitForURL(new RegExp(`#/thirtydays\\?order=${renewal}$`));
    const focused = earn.focusedOrder;
    await focused.waitFor();
    expect(await focused.getAttribute('aria-label')).toBe(`30 days · #${renewal}`);
    expect(await text(earn.orderFigure(focused, 'Quantity'))).toBe('1,090.00 AIC');
    expect(await text(earn.orderStatus(focused))).toBe('In progress');
    // It earns 12-02 to 12-31 and matures at 00:00 UTC on 1 January: at 08:00 on 12-02 that is
    // 29 days and 16 hours, and the remaining days are the countdown's whole days.
    expect(await text(earn.orderFigure(focused, 'Remaining days'))).toBe('29 days');
    expect(await text(earn.orderFigure(focused, 'Redemption countdown'))).toMatch(/^29d 15:\d\d:\d\d$/);
    expect(await earn.autoRenewSwitch(focused).getAttribute('aria-checked')).toBe('true');
    expect(await text(earn.renewalLink(focused, 'from'))).toBe(`Renewed from order #${bought.id}`);
    await page.screenshot({ path: '/tmp/renew-order.png' });

    // The old order in the list: renewed, no switch any more, its link to the new one.
    const old = earn.thirtyDayOrders.getByRole('listitem', { name: `30 days · #${bought.id}` });
    await expect.poll(() => text(earn.orderStatus(old))).toBe('Renewed');
    expect(await earn.autoRenewSwitch(old).count()).toBe(0);
    expect(await text(earn.renewalLink(old, 'to'))).toBe(`Renewed as order #${renewal}`);
    await old.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/renew-old-order.png' });
    expect(errors).toEqual([]);
  });
});
