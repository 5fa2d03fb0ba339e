import type { Page } from 'playwright-core';

/** The embedded exchange's sign-in page (stands in for the real exchange). */
export class ExchangeSignInPage {
  constructor(readonly page: Page) {}

  async waitFor(): Promise<void> {
    await this.page.waitForURL(/\/signin\//);
  }

  async pickAccount(name: string): Promise<void> {
    await this.waitFor();
    await this.page.getByRole('button', { name, exact: true }).click();
  }

  async createAccount(name: string, submitLabel = 'Create and sign in'): Promise<void> {
    await this.waitFor();
    await this.page.getByRole('textbox').fill(name);
    await this.page.getByRole('button', { name: submitLabel }).click();
  }
}
