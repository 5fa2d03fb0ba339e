import type { Page } from 'playwright-core';

const LEDGER_CHECK = '**/api/operator/ledger-check';
const TAB_FILES = ['reviews', 'ledger', 'fund', 'parameters', 'settlement', 'audit-log'];

/** Every call the page makes to the operator API (a holder's page must make none). */
export function recordOperatorCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/operator')) calls.push(request.url());
  });
  return calls;
}

/** From now on the page's ledger check answers red (a negative balance, coverage short); returns the undo. */
export async function failLedgerCheck(page: Page): Promise<() => Promise<void>> {
  await page.route(LEDGER_CHECK, async (route) => {
    const response = await route.fetch();
    const envelope = (await response.json()) as { data: { coverage: object } };
    const data = { ...envelope.data, ok: false, negativeUserAccounts: 1, coverage: { ...envelope.data.coverage, covered: false } };
    await route.fulfill({ response, json: { ...envelope, data } });
  });
  return () => page.unroute(LEDGER_CHECK);
}

/** A full-page screenshot of every console tab, by position so in any language: `${prefix}-1-reviews.png`… */
export async function screenshotTabs(page: Page, prefix: string): Promise<void> {
  await page.locator('.adm-toast-main').waitFor({ state: 'hidden' });
  for (const [index, name] of TAB_FILES.entries()) {
    const tab = page.getByRole('tab').nth(index);
    await tab.click();
    await tab.and(page.getByRole('tab', { selected: true })).waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${prefix}-${index + 1}-${name}.png`, fullPage: true });
  }
}
