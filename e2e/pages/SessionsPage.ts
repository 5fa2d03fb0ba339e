import type { Page } from 'playwright-core';

/** Signed-in devices (English texts): the list, Revoke with its confirmation, sign out the others. */
export class SessionsPage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async goto(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/sessions`);
    await this.heading.waitFor();
  }

  get heading() {
    return this.page.getByRole('heading', { level: 1, name: 'Signed-in devices', exact: true });
  }

  get list() {
    return this.page.getByRole('list', { name: 'Devices' });
  }

  get items() {
    return this.list.getByRole('listitem');
  }

  /** The session this page was opened with. */
  get current() {
    return this.items.filter({ hasText: 'This device' });
  }

  /** Every other session. */
  get others() {
    return this.items.filter({ hasNotText: 'This device' });
  }

  get confirmDialog() {
    return this.page.getByRole('dialog', { name: 'Please confirm' });
  }

  /** Revokes the first other session, through its confirmation. */
  async revokeFirstOther(): Promise<string> {
    await this.others.first().getByRole('button', { name: 'Revoke', exact: true }).click();
    const question = (await this.confirmDialog.textContent()) ?? '';
    await this.confirmDialog.getByRole('button', { name: 'Confirm', exact: true }).click();
    return question;
  }

  get revokeOthersButton() {
    return this.page.getByRole('button', { name: 'Sign out all other devices' });
  }
}
