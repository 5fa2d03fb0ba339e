import { type Browser, chromium, type Page } from 'playwright-core';

const PHONE = { width: 390, height: 844 };
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
}

/** A phone-sized page that fails the test on any uncaught page error. */
export async function phonePage(browser: Browser, locale = 'zh-CN'): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: PHONE, locale, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  return { page, errors };
}

const controlled = (page: Page) => page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 45_000 });

/**
 * Until the service worker controls the page. It registers at the page's load and takes over
 * once it has precached the build; an install that failed (one precached file not fetched on a
 * busy machine) is tried again at the app's next start, as a reload does here.
 */
export async function untilControlled(page: Page): Promise<void> {
  try {
    await controlled(page);
  } catch {
    await page.reload();
    await controlled(page);
  }
}
