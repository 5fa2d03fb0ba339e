import type { Page } from 'playwright-core';

const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/** The monthly statement (English texts): month bar, per-asset figures, movements, CSV export. */
export class StatementPage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async goto(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/statement`);
    await this.heading.waitFor();
  }

  get heading() {
    return this.page.getByRole('heading', { level: 1, name: 'Statement', exact: true });
  }

  get monthBar() {
    return this.page.getByRole('navigation', { name: 'Month' });
  }

  /** The month shown ("2026-11"). */
  get month() {
    return this.monthBar.getByRole('button', { name: 'Choose a month' });
  }

  async previousMonth(): Promise<void> {
    await this.monthBar.getByRole('button', { name: 'Previous month' }).click();
  }

  get nextMonthButton() {
    return this.monthBar.getByRole('button', { name: 'Next month' });
  }

  /** A figure of one asset's card: 'Opening balance', 'Money in', 'Money out', 'Closing balance'. */
  figure(asset: 'AIC' | 'USDT', label: string) {
    return this.page
      .getByRole('region', { name: asset, exact: true })
      .locator('.figure', { has: this.page.getByRole('term').filter({ hasText: exactly(label) }) })
      .getByRole('definition');
  }

  get movements() {
    return this.page.getByRole('list', { name: 'Movements' });
  }

  movement(index: number) {
    return this.movements.getByRole('listitem').nth(index);
  }

  get empty() {
    return this.page.getByText('No movements in this month');
  }

  get exportButton() {
    return this.page.getByRole('button', { name: 'Export CSV' });
  }

  /** Presses Export CSV and answers the saved file's name and text. */
  async exportCsv(): Promise<{ filename: string; text: string }> {
    const download = this.page.waitForEvent('download');
    await this.exportButton.click();
    const file = await download;
    const stream = await file.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return { filename: file.suggestedFilename(), text: Buffer.concat(chunks).toString('utf8') };
  }
}
