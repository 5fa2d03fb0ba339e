import type { Locator, Page } from 'playwright-core';

export type ProductName = 'Current' | '30 days' | '360 days';

/** The figure (dd) labelled `label` (dt) inside `scope`. */
const figure = (page: Page, scope: Locator, label: string) =>
  scope.locator('.figure', { has: page.getByRole('term').filter({ hasText: label }) }).getByRole('definition');

/**
 * The earn-coins centre and the 30-day financial record (English texts): product tabs, the
 * subscribe form with its bind step, rewards, the income chart, orders and their filter.
 */
export class EarnPage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async goto(query = ''): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/center${query}`);
    await this.heading.waitFor();
  }

  get heading() {
    return this.page.getByRole('heading', { level: 1, name: 'Earn coins' });
  }

  tab(name: ProductName) {
    return this.page.getByRole('tab', { name, exact: true });
  }

  async openTab(name: ProductName): Promise<void> {
    await this.tab(name).click();
    await this.form(name).waitFor();
  }

  /** The product card of the open tab (rates, term, rule). */
  product(name: ProductName) {
    return this.page.getByRole('region', { name, exact: true });
  }

  productFigure(name: ProductName, label: string) {
    return figure(this.page, this.product(name), label);
  }

  form(name: ProductName) {
    return this.page.getByRole('region', { name: `Subscribe to ${name}`, exact: true });
  }

  amountInput(name: ProductName) {
    return this.form(name).getByRole('textbox', { name: 'Subscription quantity' });
  }

  formError(name: ProductName) {
    return this.form(name).getByRole('alert');
  }

  formNote(name: ProductName, text: RegExp) {
    return this.form(name).getByText(text);
  }

  previewFigure(name: ProductName, label: string) {
    return figure(this.page, this.form(name).getByRole('region', { name: 'Estimated income' }), label);
  }

  async fillMax(name: ProductName): Promise<void> {
    await this.form(name).getByRole('button', { name: 'Max', exact: true }).click();
  }

  /** Types the amount (if given) and presses Subscribe: the checks run before any dialog. */
  async submit(name: ProductName, amount?: string): Promise<void> {
    if (amount !== undefined) await this.amountInput(name).fill(amount);
    await this.form(name).getByRole('button', { name: 'Subscribe', exact: true }).click();
  }

  bindStep(name: ProductName) {
    return this.form(name).getByRole('group', { name: 'Bind your inviter' });
  }

  bindInput(name: ProductName) {
    return this.bindStep(name).getByRole('textbox', { name: "Inviter's invitation code" });
  }

  async submitBind(name: ProductName, code?: string): Promise<void> {
    if (code !== undefined) await this.bindInput(name).fill(code);
    await this.bindStep(name).getByRole('button', { name: 'Bind', exact: true }).click();
  }

  /** The refusal under the bind step's field (empty, one's own, unknown, malformed code). */
  bindError(name: ProductName) {
    return this.bindStep(name).getByRole('alert');
  }

  /** How to get a code when one came without an invitation link. */
  bindHowTo(name: ProductName) {
    return this.bindStep(name).getByText(/^No code\?/);
  }

  /** The platform's code (DEFAULT_INVITE_CODE), offered when the operator set one. */
  platformCodeButton(name: ProductName) {
    return this.bindStep(name).getByRole('button', { name: "Or use the platform's code", exact: true });
  }

  /** The confirmation's inviter: display name and masked UID. */
  get inviterName() {
    return this.confirmDialog.getByTestId('inviter-name');
  }

  get inviterUid() {
    return this.confirmDialog.getByTestId('inviter-uid');
  }

  get confirmDialog() {
    return this.page.getByRole('dialog', { name: 'Please confirm' });
  }

  async cancel(): Promise<void> {
    await this.confirmDialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await this.confirmDialog.waitFor({ state: 'hidden' });
  }

  async confirm(): Promise<void> {
    await this.confirmDialog.getByRole('button', { name: 'Confirm', exact: true }).click();
    await this.confirmDialog.waitFor({ state: 'hidden' });
  }

  get rewards() {
    return this.page.getByRole('region', { name: 'Claimable reward' });
  }

  get rewardsAmount() {
    return this.page.getByTestId('rewards');
  }

  /** The claimable reward's Claim (disabled while nothing is claimable). */
  get claimButton() {
    return this.rewards.getByRole('button', { name: 'Claim', exact: true });
  }

  async claim(): Promise<void> {
    await this.claimButton.click();
  }

  get incomeChart() {
    return this.page.getByRole('img', { name: 'Daily income, last 30 days' });
  }

  /** The written summary under the income chart. */
  get incomeSummary() {
    return this.page.getByRole('region', { name: 'Daily income, last 30 days' }).locator('figcaption');
  }

  get projectionChart() {
    return this.page.getByRole('img', { name: /^Power of .* AIC subscribed over the next 30 days$/ });
  }

  get orders() {
    return this.page.getByRole('list', { name: 'My orders' });
  }

  /** The order card of a product in a list (the centre's "My orders" by default). */
  order(name: ProductName, list: Locator = this.orders) {
    return list.getByRole('listitem', { name: new RegExp(`^${name} · #\\d+$`) });
  }

  orderFigure(order: Locator, label: string) {
    return figure(this.page, order, label);
  }

  orderStatus(order: Locator) {
    return order.locator('.order__status');
  }

  redeemButton(order: Locator) {
    return order.getByRole('button', { name: /^Redeem/ });
  }

  /** A current order's redeem form (all or part), opened by its Redeem. */
  redeemForm(label: RegExp = /^Redeem · /) {
    return this.page.getByRole('dialog', { name: label });
  }

  /** Sends the redeem form as it stands (the whole holding unless changed): its confirm opens. */
  async submitRedeemForm(amount?: string): Promise<void> {
    const form = this.redeemForm();
    if (amount !== undefined) await form.getByRole('textbox', { name: 'Amount to redeem' }).fill(amount);
    await form.getByRole('button', { name: 'Confirm', exact: true }).click();
    await this.confirmDialog.waitFor();
  }

  reinvestSwitch(order: Locator) {
    return order.getByRole('switch', { name: /^Reinvestment/ });
  }

  /** The 30-day auto-renew switch: on an order card, or (no order) in the subscribe form. */
  autoRenewSwitch(scope: Locator = this.form('30 days')) {
    return scope.getByRole('switch', { name: /^Auto-renew/ });
  }

  /** An order card's link to the order it renewed into, or was renewed from. */
  renewalLink(order: Locator, direction: 'to' | 'from') {
    return order.getByRole('link', { name: direction === 'to' ? /^Renewed as order #\d+$/ : /^Renewed from order #\d+$/ });
  }

  get ordersSection() {
    return this.page.getByRole('region', { name: 'My orders' });
  }

  /** "No more" at the end of a list section. */
  endOfList(section: Locator = this.ordersSection) {
    return section.getByText('No more', { exact: true });
  }

  get filterForm() {
    return this.page.getByRole('dialog', { name: 'Filter', exact: true });
  }

  /** Opens the orders filter, picks an order type (or "All"), and confirms. */
  async filterByType(type: ProductName | 'All'): Promise<void> {
    await this.ordersSection.getByRole('button', { name: 'Filter', exact: true }).click();
    await this.filterForm.getByRole('radio', { name: type, exact: true }).click();
    await this.filterForm.getByRole('button', { name: 'Confirm', exact: true }).click();
    await this.filterForm.waitFor({ state: 'hidden' });
  }

  // The 30-day financial record.
  async gotoThirtyDays(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/thirtydays`);
    await this.page.getByRole('heading', { level: 1, name: '30-day financial record' }).waitFor();
  }

  /** The order a link named, shown first in the 30-day record. */
  get focusedOrder() {
    return this.page.getByRole('list', { name: 'This order' }).getByRole('listitem');
  }

  get thirtyDayOrders() {
    return this.page.getByRole('list', { name: '30-day orders' });
  }

  get incomeRecords() {
    return this.page.getByRole('list', { name: 'Income records' });
  }

  get incomeRecordsSection() {
    return this.page.getByRole('region', { name: 'Income records' });
  }
}
