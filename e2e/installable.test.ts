import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { phonePage, untilControlled } from './support/browser.ts';
import { signInThroughExchange } from './support/flows.ts';
import { journey } from './support/journey.ts';
import { waitForSaved } from './support/savedFigures.ts';
import type { RunningServer } from './support/server.ts';

type Manifest = {
  name: string;
  short_name: string;
  start_url: string;
  display: string;
  theme_color: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
};

/**
 * Installable and usable offline: the manifest a phone installs the app from, and a service
 * worker that serves the app shell when the server is gone, without ever keeping an /api answer;
 * a screen of the holder's figures then shows the last ones saved on the device, and from when.
 */
describe('installable app that opens offline', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({}, (run) => ({ server, browser } = run));

  it('has a manifest, and with the server stopped the shell opens and the wallet shows its last figures', async () => {
    const { page } = await phonePage(browser, 'en-US');
    await signInThroughExchange(page, server.baseUrl, { create: 'Offline Olive' });
    await page.getByTestId('total-amount').waitFor();

    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const manifest = (await (await fetch(`${server.baseUrl}${href}`)).json()) as Manifest;
    expect(manifest).toMatchObject({ name: 'AIC Earn', start_url: '/#/home', display: 'standalone', theme_color: '#0b1f3a' });
    const sizes = manifest.icons.map((icon) => icon.sizes);
    expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(manifest.icons.some((icon) => icon.purpose === 'maskable')).toBe(true);
    for (const icon of manifest.icons) {
      const response = await fetch(`${server.baseUrl}${icon.src}`);
      expect(response.status, icon.src).toBe(200);
      expect(response.headers.get('content-type'), icon.src).toContain(icon.type);
    }
    // What browsers and tools ask for by name, whatever the page links.
    const favicon = await fetch(`${server.baseUrl}/favicon.ico`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('content-type')).toMatch(/icon/);

    // The worker installs, precaches, and takes the page over (clients.claim).
    await untilControlled(page);
    await page.goto(`${server.baseUrl}/#/wallet`);
    await page.getByTestId('wallet-total').waitFor();
    const total = await page.getByTestId('wallet-total').textContent();
    await waitForSaved(page, ['["wallet","asset"]']);

    await server.stop();
    await page.reload();
    await page.getByText('Offline: figures may be out of date').waitFor({ timeout: 15_000 });
    await page.getByRole('heading', { level: 1, name: 'Asset wallet' }).waitFor();
    expect(await page.getByTestId('wallet-total').textContent()).toBe(total);
    await page.getByTestId('saved-figures').getByText(/^Figures from /).waitFor();
    await page.goto(`${server.baseUrl}/#/home`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBeTruthy();

    // Kept: the shell and the built files. Never: an answer of the API.
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const key of await caches.keys()) {
        for (const request of await (await caches.open(key)).keys()) urls.push(new URL(request.url).pathname);
      }
      return urls;
    });
    expect(cached).toContain('/index.html');
    expect(cached.some((path) => path.startsWith('/assets/') && path.endsWith('.js'))).toBe(true);
    expect(cached.filter((path) => path.startsWith('/api/'))).toEqual([]);
  });
});
