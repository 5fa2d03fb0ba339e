import type { Page } from 'playwright-core';

/** The earn-coins centre. */
export class CenterPage {
  constructor(readonly page: Page) {}

  tab(name: string) {
    return this.page.getByRole('tab', { name });
  }

  async selectedTab(): Promise<string> {
    return (await this.page.getByRole('tab', { selected: true }).textContent()) ?? '';
  }
}
