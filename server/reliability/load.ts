import { expect } from 'vitest';
import { formatUnits, parseAmount, UNIT } from '../../contract/money.ts';
import type { Db } from '../db/connect.ts';
import { checkLedger } from '../ledger/ledger.ts';
import { incomeTotalsMismatched } from '../income/totals.ts';

/**
 * Shared pieces of the load tests (the bank test, the extended bank test, the kill -9 test):
 * HTTP calls as the web app makes them, random choices, concurrent clients, the ledger check.
 */
type Envelope<T = unknown> = { code: number; msg: string; data: T };

/** One POST as the web app sends it; keeping it lets a client send it again with its key. */
export type Call = { path: string; token: string; body: object; key: string };

export type Answer<T = unknown> = { status: number; body: Envelope<T>; text: string };

export const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

/** A wire amount as units (the test's own amounts are always valid). */
export const units = (text: string): bigint => {
  const parsed = parseAmount(text);
  if (!parsed.ok) throw new Error(`not an amount: ${text}`);
  return parsed.value;
};

/** A random amount of 1..max steps (a seventh of a token by default: up to 8 decimals). */
export const randomAmount = (max: number, step: bigint = UNIT / 7n): string =>
  formatUnits(BigInt(1 + Math.floor(Math.random() * max)) * step);

/** POSTs a call; throws when no answer comes back (connection refused or reset, or aborted). */
export async function postCall<T = unknown>(base: string, call: Call, signal?: AbortSignal): Promise<Answer<T>> {
  const res = await fetch(`${base}${call.path}`, {
    method: 'POST',
    ...(signal ? { signal } : {}),
    headers: {
      authorization: `Bearer ${call.token}`,
      'content-type': 'application/json',
      'idempotency-key': call.key,
    },
    body: JSON.stringify(call.body),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Envelope<T>, text };
}

export async function getCall<T = unknown>(
  base: string,
  path: string,
  token: string,
  query: Record<string, string> = {},
): Promise<Answer<T>> {
  const search = new URLSearchParams(query).toString();
  const res = await fetch(`${base}${path}${search ? `?${search}` : ''}`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Envelope<T>, text };
}

/**
 * Runs `count` clients at once, each repeating `step` `steps` times (or until `stop()`): a fixed
 * amount of work, so a busy machine takes longer rather than doing less.
 */
export async function runClients(
  count: number,
  steps: number,
  step: (client: number) => Promise<void>,
  stop: () => boolean = () => false,
): Promise<void> {
  await Promise.all(
    Array.from({ length: count }, async (_, client) => {
      for (let i = 0; i < steps && !stop(); i++) await step(client);
    }),
  );
}

/**
 * The books balance to the unit, nobody is negative, every balance equals its postings, and
 * every holder's income totals equal their lines.
 */
export async function expectBooksExact(db: Db): Promise<void> {
  const check = await checkLedger(db);
  expect(check).toMatchObject({ ok: true, negativeUserAccounts: 0, accountsNotMatchingPostings: 0 });
  expect(await incomeTotalsMismatched(db)).toBe(0);
  for (const sum of Object.values(check.assetSums)) expect(sum).toBe('0');
}
