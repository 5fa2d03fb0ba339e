import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { signInThroughExchange } from './flows.ts';

/** The texts the navigation and offline journeys read, from one locale file. */
export type Messages = {
  tabs: { home: string; earn: string; wallet: string; my: string };
  title: { home: string; center: string; wallet: string; my: string; rates: string };
  common: { back: string; logout: string; logoutSuccess: string };
  rates: { entry: string };
  offline: { banner: string; figuresFrom: string; noFigures: string; noMoves: string };
};

/** A locale file's texts (web/src/i18n/locales/<file>.json). */
export const messagesOf = (file: string): Messages =>
  JSON.parse(readFileSync(new URL(`../../web/src/i18n/locales/${file}.json`, import.meta.url), 'utf8')) as Messages;

type Tree = { [key: string]: string | Tree };

/** One message of a locale file by its dotted key, with its values put in. */
export function localeMessage(file: string, key: string, values: Record<string, string> = {}): string {
  const tree = messagesOf(file) as unknown as Tree;
  const found = key.split('.').reduce<string | Tree | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), tree);
  if (typeof found !== 'string') throw new Error(`no message ${key} in ${file}`);
  return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
}

/** The languages the phone journeys walk through: the app's language key and its messages file. */
export const PHONE_LANGUAGES = [
  { key: 'en', file: 'en' },
  { key: 'Indonesia', file: 'Indonesia' },
  { key: 'Hindi', file: 'Hindi' },
] as const;

/**
 * Signs a new holder in through the exchange (whose page the journeys know in English), then
 * switches the app to the language `key` (its stored choice) and opens home in it.
 */
export async function signInSpeaking(page: Page, baseUrl: string, name: string, key: string): Promise<void> {
  await signInThroughExchange(page, baseUrl, { create: name });
  await page.context().addCookies([{ name: 'aic_earn_lang', value: key, url: baseUrl }]);
  await page.goto(`${baseUrl}/#/home`);
  await page.reload();
  await page.waitForFunction((lang) => document.documentElement.lang === lang, { en: 'en', Indonesia: 'id', Hindi: 'hi' }[key]);
  await page.getByTestId('total-amount').waitFor();
}

/** The two phone sizes: a common one, and the smallest still in use (iPhone SE 1st gen). */
export const PHONE_SIZES = [
  { width: 390, height: 844 },
  { width: 320, height: 568 },
] as const;

/** A message with its {{placeholder}} as a pattern ("Figures from {{time}}" → /^Figures from .+$/). */
export const patternOf = (message: string): RegExp =>
  new RegExp(`^${message.split(/\{\{\w+\}\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`);
