import type { Page } from 'playwright-core';

/** The device's saved query cache (web/src/api/savedFigures.ts), as stored. */
export type SavedFigures = { buster: string; clientState: { queries: { queryKey: unknown[] }[]; mutations: unknown[] } };

const KEY = 'aic_earn_figures';

/** What the page has saved on the device, null when nothing. */
export async function savedFigures(page: Page): Promise<SavedFigures | null> {
  const text = await page.evaluate((key) => localStorage.getItem(key), KEY);
  return text ? (JSON.parse(text) as SavedFigures) : null;
}

/**
 * Waits until the page has saved the answers of these queries (their keys as JSON, e.g.
 * '["wallet","asset"]') on the device: saving follows the answers by a moment.
 */
export async function waitForSaved(page: Page, keys: string[]): Promise<void> {
  await page.waitForFunction(
    ({ key, wanted }) => {
      const text = localStorage.getItem(key);
      if (!text) return false;
      const saved = (JSON.parse(text) as SavedFigures).clientState.queries.map((query) => JSON.stringify(query.queryKey));
      return wanted.every((one) => saved.includes(one));
    },
    { key: KEY, wanted: keys },
  );
}
