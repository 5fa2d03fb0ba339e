import type { Page } from 'playwright-core';

/** The home screen: dashboard, language panel, main buttons (logout is under My). */
export class HomePage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async goto(hash = '#/home'): Promise<void> {
    await this.page.goto(`${this.baseUrl}/${hash}`);
    await this.headline.waitFor();
  }

  get headline() {
    return this.page.getByRole('heading', { level: 1 });
  }

  get totalAmount() {
    return this.page.getByTestId('total-amount');
  }

  /** The language button in the top bar (the side panel lists the same names while it closes). */
  languageButton(currentName: string) {
    return this.page.locator('header.topbar').getByRole('button', { name: currentName, exact: true });
  }

  async chooseLanguage(currentName: string, targetName: string): Promise<void> {
    await this.languageButton(currentName).click();
    await this.languagePanel.getByRole('button', { name: targetName, exact: true }).click();
    await this.languageButton(targetName).waitFor();
  }

  /** The side panel's list of languages (a navigation, as the tab bar is: found by its class). */
  get languagePanel() {
    return this.page.locator('.lang-panel').getByRole('navigation');
  }

  currentLanguageInPanel() {
    return this.languagePanel.locator('[aria-current="true"]');
  }

  mainButton(label: string) {
    return this.page.getByRole('button', { name: label });
  }
}
