import type { Page } from 'playwright-core';

/** Proof of liabilities (English texts): the published root, the holder's own proof, a proof file. */
export class ProofPage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async goto(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/proof`);
    await this.heading.waitFor();
  }

  get heading() {
    return this.page.getByRole('heading', { level: 1, name: 'Proof of liabilities', exact: true });
  }

  /** Home's line "Proof of liabilities: day · total AIC · root …", a link here. */
  get homeLine() {
    return this.page.getByRole('link', { name: /^Proof of liabilities: / });
  }

  /** My's card leading here. */
  get myLink() {
    return this.page.getByRole('link', { name: /^Open proof of liabilities/ });
  }

  get published() {
    return this.page.getByRole('region', { name: 'Published root', exact: true });
  }

  get day() {
    return this.published.getByTestId('proof-day');
  }

  root(asset: 'AIC' | 'USDT') {
    return this.published.getByTestId(`root-${asset}`);
  }

  /** Before the first settled day: the published card says when the first proof comes. */
  get empty() {
    return this.published.getByTestId('proof-empty');
  }

  /** The buttons that fetch the holder's own proof (none before a proof exists). */
  get mineButtons() {
    return this.mine.getByRole('button', { name: /^(Download|Verify) my proof$/ });
  }

  get mine() {
    return this.page.getByRole('region', { name: 'My proof', exact: true });
  }

  get fileCheck() {
    return this.page.getByRole('region', { name: 'Check a proof file', exact: true });
  }

  /** Saves the holder's proof; answers where the browser put the file. */
  async download(): Promise<string> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.mine.getByRole('button', { name: 'Download my proof', exact: true }).click(),
    ]);
    return download.path();
  }

  async verifyMine(): Promise<void> {
    await this.mine.getByRole('button', { name: 'Verify my proof', exact: true }).click();
  }

  async loadFile(path: string): Promise<void> {
    await this.fileCheck.getByLabel('Proof file').setInputFiles(path);
  }

  /** The green or red result under a section. */
  verdict(section: 'mine' | 'fileCheck') {
    return this[section].getByRole('status');
  }
}
