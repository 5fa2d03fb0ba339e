import type { Page } from 'playwright-core';

type BalanceLabel = 'Available' | 'Under review' | 'Exchange balance';

/** The asset wallet (English texts): balances, the four move forms, records and their filter. */
export class WalletPage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async goto(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/wallet`);
    await this.heading.waitFor();
  }

  get heading() {
    return this.page.getByRole('heading', { level: 1, name: 'Asset wallet' });
  }

  get total() {
    return this.page.getByRole('region', { name: 'Total assets' });
  }

  /** The total in AIC as shown ("10,000.00 AIC"), in any language. */
  get totalAmount() {
    return this.page.getByTestId('wallet-total');
  }

  /** The USDT total as shown ("500.00 USDT"), in any language: never counted in the AIC one. */
  get totalUsdt() {
    return this.page.getByTestId('wallet-total-usdt');
  }

  /** Both assets' value in USD as shown ("All assets ≈ $8,500.00"), in any language. */
  get totalUsd() {
    return this.page.getByTestId('wallet-total-usd');
  }

  /**
   * A line under the AIC total ("Wallet", "In earn products", "Claimable", "Locked"), by its label in the
   * language shown; `region` is the total's name in that language.
   */
  totalLine(label: string, region = 'Total assets') {
    return this.page
      .getByRole('region', { name: region, exact: true })
      .locator('.figure', { has: this.page.getByRole('term').getByText(label, { exact: true }) })
      .getByRole('definition');
  }

  /** The figure shown for one asset's balance, e.g. ('AIC', 'Available') → "500.00". */
  balance(asset: 'AIC' | 'USDT', label: BalanceLabel) {
    return this.page
      .getByRole('region', { name: asset, exact: true })
      .locator('.figure', { has: this.page.getByRole('term').filter({ hasText: label }) })
      .getByRole('definition');
  }

  action(name: string) {
    return this.page.getByRole('group', { name: 'Wallet actions' }).getByRole('button', { name, exact: true });
  }

  /** The bottom form of an action, named after it. */
  form(name: string) {
    return this.page.getByRole('dialog', { name, exact: true });
  }

  async openMove(name: string) {
    await this.action(name).click();
    const form = this.form(name);
    await form.waitFor();
    return form;
  }

  /** The one-line description under a move form's title (what that move is for). */
  moveHint(name: string) {
    return this.form(name).getByTestId('move-hint');
  }

  /** What a form for money leaving says of the operators' review time. */
  reviewTime(name: string) {
    return this.form(name).getByTestId('review-time');
  }

  /** Closes a move form with its Cancel, sending nothing. */
  async closeMove(name: string): Promise<void> {
    await this.form(name).getByRole('button', { name: 'Cancel', exact: true }).click();
    await this.form(name).waitFor({ state: 'hidden' });
  }

  amountInput(name: string) {
    return this.form(name).getByRole('textbox', { name: 'Quantity' });
  }

  formError(name: string) {
    return this.form(name).getByRole('alert');
  }

  async chooseAsset(name: string, asset: 'AIC' | 'USDT'): Promise<void> {
    await this.form(name).getByRole('radio', { name: asset, exact: true }).click();
  }

  async fillMax(name: string): Promise<void> {
    await this.form(name).getByRole('button', { name: 'Max' }).click();
  }

  /** Types the amount and presses the form's Confirm (the checks run before any dialog). */
  async submit(name: string, amount?: string): Promise<void> {
    if (amount !== undefined) await this.amountInput(name).fill(amount);
    await this.form(name).getByRole('button', { name: 'Confirm', exact: true }).click();
  }

  get confirmDialog() {
    return this.page.getByRole('dialog', { name: 'Please confirm' });
  }

  async confirm(): Promise<void> {
    await this.confirmDialog.getByRole('button', { name: 'Confirm', exact: true }).click();
  }

  get records() {
    return this.page.getByRole('list', { name: 'Transfer records' });
  }

  record(index: number) {
    return this.records.getByRole('listitem').nth(index);
  }

  get recordsSection() {
    return this.page.getByRole('region', { name: 'Transfer records' });
  }

  get filterForm() {
    return this.page.getByRole('dialog', { name: 'Filter', exact: true });
  }

  async openFilter(): Promise<void> {
    await this.recordsSection.getByRole('button', { name: 'Filter', exact: true }).click();
    await this.filterForm.waitFor();
  }

  /** Opens a date field of the open filter and confirms the picker's day (today by default). */
  async pickDate(label: 'Start date' | 'End date'): Promise<void> {
    await this.filterForm.getByRole('button', { name: new RegExp(label) }).click();
    // The picker is the last popup on the page; its header has Cancel and Confirm.
    await this.page.getByRole('button', { name: 'Confirm', exact: true }).last().click();
    await this.filterForm.getByRole('button', { name: new RegExp(`${label}\\s*\\d{4}-\\d{2}-\\d{2}$`) }).waitFor();
  }

  /** Opens the filter, picks an order type (or "All"), and confirms. */
  async filterByType(type: string): Promise<void> {
    await this.openFilter();
    await this.filterForm.getByRole('radio', { name: type, exact: true }).click();
    await this.filterForm.getByRole('button', { name: 'Confirm', exact: true }).click();
    await this.filterForm.waitFor({ state: 'hidden' });
  }

  /** Drags the page down from the top with touch events, as a thumb would. */
  async pullToRefresh(): Promise<void> {
    await this.page.evaluate(() => window.scrollTo(0, 0));
    const cdp = await this.page.context().newCDPSession(this.page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', y?: number) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: y === undefined ? [] : [{ x: 195, y }] });
    await touch('touchStart', 200);
    for (let step = 1; step <= 12; step++) await touch('touchMove', 200 + step * 25);
    await touch('touchEnd');
    await cdp.detach();
  }
}
