import type { Page } from 'playwright-core';

/** The bar at the bottom of Home, Earn, Wallet and My: one link per screen, the current one marked. */
export class TabBar {
  constructor(readonly page: Page) {}

  /** Found by its class, so in any language. */
  get bar() {
    return this.page.locator('nav.tab-bar');
  }

  tab(label: string) {
    return this.bar.getByRole('link', { name: label, exact: true });
  }

  async open(label: string): Promise<void> {
    await this.tab(label).click();
  }

  /** The tab marked aria-current="page". */
  get current() {
    return this.bar.locator('[aria-current="page"]');
  }
}
