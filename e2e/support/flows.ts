import type { Page } from 'playwright-core';
import { ExchangeSignInPage } from '../pages/ExchangeSignInPage.ts';
import { HomePage } from '../pages/HomePage.ts';

/** Opens the app with nothing stored, goes through the exchange, and lands signed in on home. */
export async function signInThroughExchange(page: Page, baseUrl: string, account: { pick: string } | { create: string }) {
  await page.goto(`${baseUrl}/`);
  const exchange = new ExchangeSignInPage(page);
  if ('pick' in account) await exchange.pickAccount(account.pick);
  else await exchange.createAccount(account.create);
  const home = new HomePage(page, baseUrl);
  await home.totalAmount.waitFor();
  return home;
}

export const storedCookie = async (page: Page, key: string): Promise<string | undefined> => {
  const cookies = await page.context().cookies();
  const value = cookies.find((c) => c.name === `aic_earn_${key}`)?.value;
  return value === undefined ? undefined : decodeURIComponent(value);
};
