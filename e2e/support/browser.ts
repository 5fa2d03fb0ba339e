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
