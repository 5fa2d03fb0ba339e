import { networkInterfaces } from 'node:os';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../contract/errors.ts';
import { PATHS } from '../contract/paths.ts';
import { launchBrowser, phonePage } from './support/browser.ts';
import { signInOverHttp } from './support/httpSignIn.ts';
import { signInThroughExchange } from './support/flows.ts';
import { journey } from './support/journey.ts';
import { freePort, type RunningServer, startServer } from './support/server.ts';

/** What the browser's Content Security Policy blocks on this page, as the console reports it. */
function cspBlocks(page: Page): string[] {
  const blocked: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/.test(message.text())) blocked.push(message.text());
  });
  return blocked;
}

/**
 * The app opened at http://127.0.0.1:PORT while its public address is http://localhost:PORT
 * (the default): the embedded exchange's sign-in page is on localhost, and its form must be
 * allowed to send the browser back to 127.0.0.1 (the sign-in page's CSP form-action names the
 * allowed return addresses).
 */
describe('signing in at http://127.0.0.1, at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({}, (run) => ({ server, browser } = run));

  it('goes through the embedded exchange and lands signed in on home at 127.0.0.1', async () => {
    const { page, errors } = await phonePage(browser, 'en-US');
    const blocked = cspBlocks(page);
    const address = `http://127.0.0.1:${server.port}`;
    const home = await signInThroughExchange(page, address, { create: 'Ada at 127' });
    expect(new URL(page.url()).origin).toBe(address);
    await expect(home.totalAmount.textContent()).resolves.toMatch(/\d/);
    expect(blocked).toEqual([]);
    expect(errors).toEqual([]);
  });
});

/** This machine's first IPv4 address other than loopback: where a phone on its network finds it. */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((nic) => nic?.family === 'IPv4' && !nic.internal)?.address;

/**
 * The app opened at the machine's network address, as a phone on the same network would, with
 * nothing configured: PUBLIC_URL stays http://localhost:PORT, which a phone cannot reach, so the
 * whole sign-in (the embedded exchange's pages included) must happen at the address used.
 */
describe.skipIf(!lanAddress)('signing in at the machine\'s network address, at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ HOST: '0.0.0.0' }, (run) => ({ server, browser } = run));

  it('never leaves that address and lands signed in on home', async () => {
    const { page, errors } = await phonePage(browser, 'en-US');
    const blocked = cspBlocks(page);
    const visited = new Set<string>();
    page.on('framenavigated', (frame) => visited.add(new URL(frame.url()).origin));
    const address = `http://${lanAddress}:${server.port}`;
    const home = await signInThroughExchange(page, address, { create: 'Ada on the LAN' });
    expect([...visited].filter((origin) => origin.startsWith('http'))).toEqual([address]);
    await expect(home.totalAmount.textContent()).resolves.toMatch(/\d/);
    expect(blocked).toEqual([]);
    expect(errors).toEqual([]);
  });
});

/**
 * The exchange as a process of its own on another port (a second instance's embedded exchange,
 * told the app's return address), and the app pointed at it with OIDC_ISSUER.
 */
describe('signing in through an exchange on another port, at 390x844', () => {
  let exchange: RunningServer;
  let app: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    const appPort = await freePort();
    exchange = await startServer({
      OAUTH_REDIRECT_URIS: `http://localhost:${appPort}/`,
      EXCHANGE_WEBHOOK_URL: `http://localhost:${appPort}/webhooks/exchange`,
    });
    // The exchange's client secret for this app: its embedded provider's demo one.
    app = await startServer({
      PORT: String(appPort),
      OIDC_ISSUER: `${exchange.baseUrl}/oidc`,
      EXCHANGE_API_URL: `${exchange.baseUrl}/exchange`,
      OIDC_CLIENT_SECRET: 'embedded-provider-demo-secret',
      // The browser's holder is user 1; the operator who approves below is user 2.
      OPERATOR_USER_IDS: '2',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await exchange?.stop();
  });

  it('leaves for the exchange’s address, signs in there, and comes back signed in', async () => {
    const { page, errors } = await phonePage(browser, 'en-US');
    const blocked = cspBlocks(page);
    const visited = new Set<string>();
    page.on('framenavigated', (frame) => visited.add(new URL(frame.url()).origin));
    const home = await signInThroughExchange(page, app.baseUrl, { create: 'Ada elsewhere' });
    expect(visited).toContain(exchange.baseUrl);
    expect(new URL(page.url()).origin).toBe(app.baseUrl);
    await expect(home.totalAmount.textContent()).resolves.toMatch(/\d/);
    expect(blocked).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('moves money only as the exchange process’s books say: refused, recharged, withdrawn after approval', async () => {
    const operator = await signInOverHttp(app.baseUrl, { name: 'Olga elsewhere' });
    const holder = await signInOverHttp(app.baseUrl, { name: 'Hana elsewhere' });
    const call = async (method: 'GET' | 'POST', path: string, token: string, body?: object) => {
      const response = await fetch(`${app.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json', 'idempotency-key': `e2e-${crypto.randomUUID()}` } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return (await response.json()) as { code: number; data: { id: string; status: string; balances: { asset: string; available: string; exchange: string }[] } };
    };
    // The platform's figure from getAsset, the exchange's from its own route (getAsset does not wait on the exchange).
    const aic = async () => {
      const available = (await call('GET', PATHS.getAsset, holder.token)).data.balances.find((b) => b.asset === 'AIC')?.available;
      const exchange = (await call('GET', PATHS.exchangeBalances, holder.token)).data.balances.find((b) => b.asset === 'AIC')?.exchange;
      return { available, exchange };
    };
    expect(await aic()).toMatchObject({ available: '0', exchange: '20000' });
    expect((await call('POST', PATHS.recharge, holder.token, { asset: 'AIC', amount: '1000000000' })).code).toBe(ERRORS.EXCHANGE_BALANCE.code);
    expect(await aic()).toMatchObject({ available: '0', exchange: '20000' });
    expect((await call('POST', PATHS.recharge, holder.token, { asset: 'AIC', amount: '100' })).data.status).toBe('success');
    expect(await aic()).toMatchObject({ available: '100', exchange: '19900' });
    const withdrawal = await call('POST', PATHS.withdraw, holder.token, { asset: 'AIC', amount: '50' });
    expect(withdrawal.data.status).toBe('under_review');
    const approved = await call('POST', PATHS.operatorApprove.replace(':id', withdrawal.data.id), operator.token, {});
    expect(approved.data.status).toBe('success');
    expect(await aic()).toMatchObject({ available: '50', exchange: '19950' });
  });
});
