import type { Page } from 'playwright-core';

/** The centre's dual-currency view (English texts): the AIC / USDT switch and the holdings table. */
export class DualView {
  constructor(readonly page: Page) {}

  get region() {
    return this.page.getByRole('region', { name: 'My holdings', exact: true });
  }

  choice(name: 'AIC' | 'AIC / USDT') {
    return this.region.getByRole('radiogroup', { name: 'Currency view' }).getByRole('radio', { name, exact: true });
  }

  async choose(name: 'AIC' | 'AIC / USDT'): Promise<void> {
    await this.choice(name).click();
    await this.choice(name).and(this.page.locator('[aria-checked="true"]')).waitFor();
  }

  get columns() {
    return this.region.getByRole('columnheader');
  }

  /** The cells of a row ("30 days", "Income on holdings", "Claimable now"): [AIC] or [AIC, USDT]. */
  async row(label: string): Promise<string[]> {
    const row = this.region.getByRole('row').filter({ has: this.page.getByRole('rowheader', { name: label, exact: true }) });
    return (await row.getByRole('cell').allTextContents()).map((cell) => cell.trim());
  }

  get price() {
    return this.region.getByTestId('dual-price');
  }
}
