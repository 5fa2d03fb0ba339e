import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { phonePage } from './support/browser.ts';
import { signInThroughExchange } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

type Loaded = { fcp: number; resources: { name: string; startTime: number }[] };

/**
 * Home's first paint needs only its first download (issue 18): its figures, bell, proof line and
 * operator entry (their chunk, the query cache, their answers) are asked for after it, and
 * antd-mobile's texts in the holder's language, which home does not show, not at all.
 */
describe('home paints before it asks for its figures', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({}, (run) => ({ server, browser } = run));

  it('asks for the figures and their code after the first paint, and not for the antd-mobile texts', async () => {
    const { page, errors } = await phonePage(browser, 'en-US');
    await signInThroughExchange(page, server.baseUrl, { create: 'First Paint' });
    await page.goto('about:blank');
    await page.goto(`${server.baseUrl}/#/home`);
    await page.getByTestId('total-amount').waitFor();
    await page.waitForLoadState('networkidle');
    const { fcp, resources } = (await page.evaluate(`({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1,
      resources: performance.getEntriesByType('resource').map((r) => ({ name: new URL(r.name).pathname, startTime: r.startTime })),
    })`)) as Loaded;
    expect(fcp).toBeGreaterThan(0);
    const later = resources.filter((r) => /^\/api\/|signedInParts|queryRoot/.test(r.name));
    expect(later.map((r) => r.name)).toEqual(expect.arrayContaining(['/api/home', '/api/user/info', '/api/proof/root']));
    for (const r of later) expect(r.startTime, `${r.name} asked for before the first paint`).toBeGreaterThanOrEqual(fcp);
    // antd-mobile's English texts (this holder's language) are loaded only for a screen that shows them.
    expect(resources.map((r) => r.name).filter((name) => /\/en-US-/.test(name))).toEqual([]);
    expect(errors).toEqual([]);
  });
});
