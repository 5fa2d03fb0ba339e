import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushPayload } from '../contract/push.ts';
import { type PushReceiver, startPushReceiver } from '../server/test/pushReceiver.ts';
import { callApi } from './support/api.ts';
import { phonePage } from './support/browser.ts';
import { operatorAndInvitee, signInThroughExchange } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

type Subscription = { endpoint: string; keys: { p256dh: string; auth: string } };

/**
 * Headless Chromium has no push service to reach here: the page's PushManager hands out the
 * subscription of a browser of the local push service (server/test/pushReceiver.ts) instead,
 * after the real permission check. Everything else is real: the permission, the server's key,
 * the calls, the dispatcher and its encryption, and the service worker showing a push.
 */
async function useLocalPushService(page: Page, subscription: Subscription): Promise<void> {
  await page.addInitScript((sub: Subscription) => {
    let current: PushSubscription | null = null;
    const make = () =>
      ({
        endpoint: sub.endpoint,
        expirationTime: null,
        toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }),
        unsubscribe: async () => {
          current = null;
          return true;
        },
      }) as unknown as PushSubscription;
    PushManager.prototype.subscribe = async function subscribe() {
      if (Notification.permission !== 'granted') throw new DOMException('permission', 'NotAllowedError');
      current = make();
      return current;
    };
    PushManager.prototype.getSubscription = async () => current;
  }, subscription);
}

describe('push notifications on this device, at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  let push: PushReceiver;
  journey({ OPERATOR_USER_IDS: '1', CLOCK_START: '2026-11-20T08:00:00Z', PUSH_INTERVAL_MS: '300' }, (run) => ({ server, browser } = run));
  beforeAll(async () => {
    push = await startPushReceiver();
  });
  afterAll(async () => {
    await push?.close();
  });
  const api = <T>(path: string, token: string, body?: object) => callApi<T>(server.baseUrl, path, token, body);

  it('switches on with the permission, gets the day’s income in English, shows a push, and switches off', async () => {
    const { olgaToken, holder, token } = await operatorAndInvitee(browser, server.baseUrl);
    const { page, errors } = holder;
    const phone = push.browser('/hana');
    await page.context().grantPermissions(['notifications'], { origin: server.baseUrl });
    await useLocalPushService(page, phone.subscription);
    await page.goto(`${server.baseUrl}/#/my`);
    await page.reload();

    const toggle = page.getByRole('switch', { name: 'Notifications on this device' });
    await toggle.waitFor();
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await page.getByText(/^Off\. Switch on to get your notices here/).waitFor();
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    await page.getByText(/^On\. Your notices come to this device/).waitFor();
    await page.screenshot({ path: '/tmp/push-on.png' });

    // A settled day: the dispatcher sends Hana's income notice to her browser, in English.
    await api('/api/transfer-in', token, { asset: 'AIC', amount: '2000' });
    await api('/api/product/buy', token, { product: 'fixed30', amount: '1000' });
    await api('/api/operator/clock/advance', olgaToken, { days: 2 });
    await expect.poll(() => phone.received().length, { timeout: 15_000 }).toBe(1);
    const payload = JSON.parse(phone.decrypt(phone.received()[0]?.body ?? Buffer.alloc(0))) as PushPayload;
    expect(payload).toMatchObject({ title: 'Income credited', body: '3.00 AIC credited for 2026-11-21', url: '/#/income' });

    // The service worker shows a push it gets (delivered through the browser's own channel).
    const cdp = await page.context().newCDPSession(page);
    const registrationId = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const found = registrations.find((r) => r.scopeURL.startsWith(server.baseUrl) && !r.isDeleted);
        if (found) resolve(found.registrationId);
      }),
    );
    await cdp.send('ServiceWorker.enable');
    // A push reaches only an active worker: under load it may still be installing here.
    await page.evaluate(async () => void (await navigator.serviceWorker.ready));
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: server.baseUrl, registrationId: await registrationId, data: JSON.stringify(payload) });
    const shown = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, icon: n.icon, data: n.data })),
      );
    await expect.poll(shown, { timeout: 15_000 }).toEqual([{ title: 'Income credited', body: '3.00 AIC credited for 2026-11-21', icon: `${server.baseUrl}/icon-192.png`, data: { url: '/#/income' } }]);

    // Off: the server forgets this browser; the next notice goes nowhere.
    const forgotten = page.waitForResponse((r) => r.url().endsWith('/api/push/unsubscribe'));
    await toggle.click();
    expect((await (await forgotten).json()).code).toBe(0);
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    await api('/api/withdraw', token, { asset: 'AIC', amount: '10' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(phone.received()).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('says so when the permission is refused, in the holder’s language', async () => {
    const { page, errors } = await phonePage(browser, 'zh-CN');
    await page.addInitScript(() => {
      Notification.requestPermission = async () => 'denied';
    });
    await signInThroughExchange(page, server.baseUrl, { pick: '陈伟' });
    await page.goto(`${server.baseUrl}/#/my`);
    const toggle = page.getByRole('switch', { name: '本设备通知' });
    await toggle.waitFor();
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    await toggle.click();
    await page.getByText('浏览器已禁止本网站发送通知。请在浏览器的网站设置中允许通知，然后再次开启。').waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await page.screenshot({ path: '/tmp/push-denied-zh.png' });
    expect(errors).toEqual([]);
  });
});
