import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/connect.ts';

/** The exchange's own accounts, simulated for the embedded provider. */
export type ExchangeAccount = { subject: string; name: string };

const DEMO_ACCOUNTS: ExchangeAccount[] = [
  { subject: 'demo-alice', name: 'Alice' },
  { subject: 'demo-bob', name: 'Bob' },
  { subject: 'demo-chen', name: '陈伟' },
  { subject: 'demo-siti', name: 'Siti' },
];

const MAX_NAME_LENGTH = 40;

export async function ensureDemoAccounts(db: Db): Promise<void> {
  await db
    .insertInto('exchange_accounts')
    .values(DEMO_ACCOUNTS)
    .onConflict((oc) => oc.column('subject').doNothing())
    .execute();
}

export async function listAccounts(db: Db, limit = 20): Promise<ExchangeAccount[]> {
  return db
    .selectFrom('exchange_accounts')
    .select(['subject', 'name'])
    .orderBy('created_at', 'desc')
    .orderBy('subject')
    .limit(limit)
    .execute();
}

export async function findAccount(db: Db, subject: string): Promise<ExchangeAccount | undefined> {
  return db.selectFrom('exchange_accounts').select(['subject', 'name']).where('subject', '=', subject).executeTakeFirst();
}

export async function createAccount(db: Db, name: string): Promise<ExchangeAccount> {
  const account = { subject: `ex-${randomBytes(9).toString('base64url')}`, name: name.trim().slice(0, MAX_NAME_LENGTH) };
  await db.insertInto('exchange_accounts').values(account).execute();
  return account;
}
