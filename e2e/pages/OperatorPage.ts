import type { Locator, Page } from 'playwright-core';

export type OperatorTab = 'Reviews' | 'Ledger' | 'Fund' | 'Parameters' | 'Settlement' | 'Audit log';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The figure (dd) labelled `label` (dt) inside `scope`. */
const figure = (page: Page, scope: Locator, label: string) =>
  scope
    .locator('.figure', { has: page.getByRole('term').filter({ hasText: new RegExp(`^${escapeRegExp(label)}$`) }) })
    .getByRole('definition');

/**
 * The operator console (English texts): review queue, ledger check, funding, parameters,
 * settlement and the audit log, one tab each; or "Access denied" for anyone else.
 */
export class OperatorPage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async goto(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/operator`);
    await this.heading.waitFor();
  }

  get heading() {
    return this.page.getByRole('heading', { level: 1, name: 'Operator console' });
  }

  /** Home's way in, shown to operators only. */
  get homeEntry() {
    return this.page.getByRole('button', { name: 'Operator console', exact: true });
  }

  get denied() {
    return this.page.getByRole('region', { name: 'Access denied' });
  }

  tab(name: OperatorTab) {
    return this.page.getByRole('tab', { name, exact: true });
  }

  async openTab(name: OperatorTab): Promise<void> {
    await this.tab(name).click();
    await this.page.getByRole('tab', { name, exact: true, selected: true }).waitFor();
  }

  get confirmDialog() {
    return this.page.getByRole('dialog', { name: 'Please confirm' });
  }

  async confirm(): Promise<void> {
    await this.confirmDialog.getByRole('button', { name: 'Confirm', exact: true }).click();
    await this.confirmDialog.waitFor({ state: 'hidden' });
  }

  async done(): Promise<void> {
    await this.page.getByText('Operation successful').waitFor();
  }

  // Review queue.
  get reviewQueue() {
    return this.page.getByRole('region', { name: 'Review queue' });
  }

  get reviews() {
    return this.page.getByRole('list', { name: 'Requests under review' });
  }

  /** The request of `amount` (as shown, "200.00") in `asset`. */
  review(amount: string, asset = 'AIC') {
    return this.reviews.getByRole('listitem', { name: new RegExp(`· ${escapeRegExp(amount)} ${asset} ·`) });
  }

  /** Approve, then the confirmation (its text is returned), then "Operation successful". */
  async approve(amount: string): Promise<string> {
    await this.review(amount).getByRole('button', { name: 'Approve', exact: true }).click();
    const question = (await this.confirmDialog.textContent()) ?? '';
    await this.confirm();
    await this.done();
    return question;
  }

  get rejectDialog() {
    return this.page.getByRole('dialog', { name: 'Reject request' });
  }

  async openReject(amount: string): Promise<void> {
    await this.review(amount).getByRole('button', { name: 'Reject', exact: true }).click();
    await this.rejectDialog.waitFor();
  }

  /** In the open reject dialog: types the reason (if given) and presses Reject. */
  async submitReject(reason?: string): Promise<void> {
    if (reason !== undefined) await this.rejectDialog.getByRole('textbox', { name: /^Reason/ }).fill(reason);
    await this.rejectDialog.getByRole('button', { name: 'Reject', exact: true }).click();
  }

  // Ledger check.
  get ledger() {
    return this.page.getByRole('region', { name: 'Ledger check' });
  }

  get verdict() {
    return this.page.getByTestId('ledger-verdict');
  }

  ledgerFigure(label: string) {
    return figure(this.page, this.ledger, label);
  }

  get settlementDays() {
    return this.ledger.getByRole('list', { name: 'Recent settlement days' });
  }

  // Fund.
  get fundForm() {
    return this.page.getByRole('region', { name: 'Fund an account' });
  }

  async fund(account: 'Treasury' | 'Supercomputing pool', asset: 'AIC' | 'USDT', amount: string): Promise<void> {
    await this.fundForm.getByRole('radio', { name: account, exact: true }).click();
    await this.fundForm.getByRole('radio', { name: asset, exact: true }).click();
    await this.fundForm.getByRole('textbox', { name: 'Amount' }).fill(amount);
    await this.fundForm.getByRole('button', { name: 'Fund', exact: true }).click();
  }

  // Parameters.
  get paramsList() {
    return this.page.getByRole('list', { name: 'Parameters' });
  }

  param(label: string) {
    return this.paramsList.getByRole('listitem', { name: label, exact: true });
  }

  /** A parameter's value in force today, on the right of its row. */
  paramValue(label: string) {
    return this.param(label).getByTestId('param-in-force');
  }

  /** From when that value is in force (a day, the first version, or the configured default). */
  paramSince(label: string) {
    return this.param(label).getByTestId('param-since');
  }

  /** The New value field's placeholder once a parameter is picked. */
  async paramPlaceholder(label: string): Promise<string> {
    await this.paramForm.getByRole('combobox', { name: 'Parameter' }).selectOption({ label });
    return (await this.paramForm.getByRole('textbox', { name: 'New value' }).getAttribute('placeholder')) ?? '';
  }

  get paramForm() {
    return this.page.getByRole('region', { name: 'Schedule a change' });
  }

  /** Picks the parameter and value; the effective day stays at its default (the earliest allowed). */
  async scheduleParam(label: string, value: string): Promise<void> {
    await this.paramForm.getByRole('combobox', { name: 'Parameter' }).selectOption({ label });
    await this.paramForm.getByRole('textbox', { name: 'New value' }).fill(value);
    await this.paramForm.getByRole('button', { name: 'Schedule', exact: true }).click();
  }

  // Settlement.
  get settlement() {
    return this.page.getByRole('region', { name: 'Run settlement' });
  }

  /** Types the days and presses Advance (the confirmation follows). */
  async advanceClock(days: number): Promise<void> {
    const form = this.page.getByRole('region', { name: 'Advance the clock (demo)' });
    await form.getByRole('textbox', { name: 'Days' }).fill(String(days));
    await form.getByRole('button', { name: 'Advance the clock', exact: true }).click();
  }

  get settleResult() {
    return this.page.getByRole('region', { name: 'Settlement result' });
  }

  // Audit log.
  get auditLog() {
    return this.page.getByRole('list', { name: 'Audit log' });
  }

  auditEntry(index: number) {
    return this.auditLog.getByRole('listitem').nth(index);
  }
}
