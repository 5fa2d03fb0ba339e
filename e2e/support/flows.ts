import { ExchangeSignInPage } from '../pages/ExchangeSignInPage.ts';
import { HomePage } from '../pages/HomePage.ts';
import type { Browser, Page } from 'playwright-core';
import type { UserInfoData } from '../../contract/team.ts';
import { callApi } from './api.ts';
import { phonePage } from './browser.ts';

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

/**
 * The start of the journeys about a team: Olga (the operator, user 1) signs in, then Hana signs
 * in on a phone of her own and binds Olga's invitation code. Both pages, tokens and Olga's code.
 */
export async function operatorAndInvitee(browser: Browser, baseUrl: string) {
  const operator = await phonePage(browser, 'en-US');
  await signInThroughExchange(operator.page, baseUrl, { create: 'Olga' });
  const olgaToken = (await storedCookie(operator.page, 'token')) as string;
  const olga = await callApi<UserInfoData>(baseUrl, '/api/user/info', olgaToken);
  const holder = await phonePage(browser, 'en-US');
  const home = await signInThroughExchange(holder.page, baseUrl, { create: 'Hana' });
  const token = (await storedCookie(holder.page, 'token')) as string;
  await callApi(baseUrl, '/api/user/bind', token, { inviteCode: olga.inviteCode });
  return { operator, olgaToken, olga, holder, home, token };
}
