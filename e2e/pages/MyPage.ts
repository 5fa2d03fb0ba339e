import type { Locator, Page } from 'playwright-core';

const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/** The figure (dd) labelled exactly `label` (dt) inside `scope`. */
const figure = (page: Page, scope: Locator, label: string) =>
  scope.locator('.figure', { has: page.getByRole('term').filter({ hasText: exactly(label) }) }).getByRole('definition');

/**
 * My and Rebate (English texts): the profile with level, the invitation codes and the bind
 * step, the share card, earnings and claims, network income with the unlock tier, the team and
 * its invitation records; on Rebate the network income and its lock-ups.
 */
export class MyPage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async goto(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/my`);
    await this.heading.waitFor();
  }

  get heading() {
    return this.page.getByRole('heading', { level: 1, name: 'My', exact: true });
  }

  /** The header card, named after the user. */
  profile(name: string) {
    return this.page.getByRole('region', { name, exact: true });
  }

  /** "Level V1" (the badge shows V1). */
  level(name: string) {
    return this.profile(name).getByText(/^Level V\d$/);
  }

  /** "Effective user" or "Not effective". */
  effective(name: string) {
    return this.profile(name).getByText(/^(Effective user|Not effective)$/);
  }

  get codes() {
    return this.page.getByRole('region', { name: 'Invitation codes' });
  }

  get ownCode() {
    return this.codes.getByTestId('own-code');
  }

  get superiorCode() {
    return this.codes.getByTestId('superior-code');
  }

  async copyOwnCode(): Promise<void> {
    await this.codes.getByRole('button', { name: 'Copy my invitation code' }).click();
  }

  get bindStep() {
    return this.codes.getByRole('group', { name: 'Bind your inviter' });
  }

  async bind(code: string): Promise<void> {
    await this.bindStep.getByRole('textbox', { name: "Inviter's invitation code" }).fill(code);
    await this.bindStep.getByRole('button', { name: 'Bind', exact: true }).click();
  }

  get share() {
    return this.page.getByRole('region', { name: 'Invite friends' });
  }

  get inviteLink() {
    return this.share.getByTestId('invite-link');
  }

  async copyLink(): Promise<void> {
    await this.share.getByRole('button', { name: 'Copy link', exact: true }).click();
  }

  get earnings() {
    return this.page.getByRole('region', { name: 'My earnings' });
  }

  earning(label: string) {
    return figure(this.page, this.earnings, label);
  }

  get network() {
    return this.page.getByRole('region', { name: 'Network income' });
  }

  get networkClaimable() {
    return this.network.getByTestId('network-claimable');
  }

  networkFigure(label: 'Locked' | 'Pending unlock' | 'Next unlock') {
    return figure(this.page, this.network, label);
  }

  get unlockPercent() {
    return this.network.getByTestId('unlock-percent');
  }

  get unlockBar() {
    return this.network.getByRole('progressbar', { name: 'Held in active orders' });
  }

  /** Network income's Claim (disabled while nothing is claimable). */
  get networkClaimButton() {
    return this.network.getByRole('button', { name: 'Claim', exact: true });
  }

  async claimNetwork(): Promise<void> {
    await this.networkClaimButton.click();
  }

  /** The claimable reward's Claim under My earnings (disabled while nothing is claimable). */
  get rewardsClaimButton() {
    return this.page.getByRole('region', { name: 'Claimable reward' }).getByRole('button', { name: 'Claim', exact: true });
  }

  get confirmDialog() {
    return this.page.getByRole('dialog', { name: 'Please confirm' });
  }

  async confirm(): Promise<void> {
    await this.confirmDialog.getByRole('button', { name: 'Confirm', exact: true }).click();
    await this.confirmDialog.waitFor({ state: 'hidden' });
  }

  get team() {
    return this.page.getByRole('region', { name: 'My team' });
  }

  teamFigure(label: 'Team quantity' | 'Team size' | 'Direct invitees') {
    return figure(this.page, this.team, label);
  }

  get records() {
    return this.page.getByRole('list', { name: 'Invitation records' });
  }

  /** One invitee's record, named "Ben · UID 3". */
  record(name: string, uid: string) {
    return this.records.getByRole('listitem', { name: `${name} · UID ${uid}`, exact: true });
  }

  recordFigure(record: Locator, label: string) {
    return figure(this.page, record, label);
  }

  /** "No more" at the end of a list section. */
  endOfList(section: string) {
    return this.page.getByRole('region', { name: section }).getByText('No more', { exact: true });
  }

  /** Log out, at the bottom of My. */
  get logoutButton() {
    return this.page.getByRole('button', { name: 'Log out', exact: true });
  }

  async openRebate(): Promise<void> {
    await this.network.getByRole('link', { name: /^Rebate details/ }).click();
    await this.page.getByRole('heading', { level: 1, name: 'Rebate', exact: true }).waitFor();
  }

  get lockups() {
    return this.page.getByRole('list', { name: 'Network income records' });
  }

  /** The lock-up of one day's rebates, named "Rebate of 2026-05-01". */
  lockup(day: string) {
    return this.lockups.getByRole('listitem', { name: `Rebate of ${day}`, exact: true });
  }

  lockupFigure(lockup: Locator, label: 'Unlockable' | 'Unlock day') {
    return figure(this.page, lockup, label);
  }
}
