import type { Page } from 'playwright-core';

/** Income details (#/income) and the rate history (#/rates), English texts. */
export class IncomePage {
  constructor(
    readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/income`);
    await this.page.getByRole('heading', { name: 'Income details' }).waitFor();
  }

  async showKind(tab: '360 days' | 'Current' | '30 days' | 'Rebates'): Promise<void> {
    await this.page.getByRole('tab', { name: tab, exact: true }).click();
  }

  /** The list of one kind's lines. */
  lines(kind: string) {
    return this.page.getByRole('list', { name: kind });
  }

  /** Opens "How was this computed?" on the n-th line and returns the dialog. */
  async explain(kind: string, index = 0) {
    await this.lines(kind).getByRole('listitem').nth(index).getByRole('button', { name: 'How was this computed?' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'How was this computed?' });
    await dialog.waitFor();
    return dialog;
  }

  async openRates(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/rates`);
    await this.page.getByRole('heading', { name: 'Rate history' }).waitFor();
  }

  /** One term's versions on the rate history screen. */
  versions(label: string) {
    return this.page.getByRole('list', { name: label, exact: true }).getByRole('listitem');
  }
}
