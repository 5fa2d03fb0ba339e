import type { Locator, Page } from 'playwright-core';

const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/** The recruitment activity (English texts): the phase and countdown, the figures, the unlock progress. */
export class ActivityPage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async goto(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/#/activity`);
    await this.heading.waitFor();
  }

  get heading() {
    return this.page.getByRole('heading', { level: 1, name: 'Recruitment activity', exact: true });
  }

  get phase() {
    return this.page.getByTestId('activity-phase');
  }

  get countdown() {
    return this.page.getByTestId('activity-countdown');
  }

  section(name: 'Current phase' | 'My performance in the activity' | 'Team growth in the activity' | 'Network income unlock') {
    return this.page.getByRole('region', { name, exact: true });
  }

  /** The figure (dd) labelled exactly `label` (dt) inside a section. */
  figure(section: Locator, label: string) {
    return section
      .locator('.figure', { has: this.page.getByRole('term').filter({ hasText: exactly(label) }) })
      .getByRole('definition');
  }

  get unlockPercent() {
    return this.section('Network income unlock').getByTestId('unlock-percent');
  }

  get unlockBar() {
    return this.section('Network income unlock').getByRole('progressbar', { name: 'Held in active orders' });
  }
}
