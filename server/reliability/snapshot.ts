import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';

/**
 * What money and its records look like at a moment: every balance, the number of journal
 * entries, postings and income lines, every order and transfer, who invited whom, scheduled
 * parameters and settled days. Two equal snapshots mean nothing of value changed in between.
 */
export async function ledgerSnapshot(db: Db): Promise<string> {
  const [accounts, counts, orders, transfers, users] = await Promise.all([
    db.selectFrom('accounts').select(['user_id', 'asset', 'kind', 'balance']).orderBy('user_id').orderBy('asset').orderBy('kind').execute(),
    sql<Record<string, bigint>>`select
      (select count(*) from journal_entries) as entries, (select count(*) from postings) as postings,
      (select count(*) from income) as income, (select count(*) from params) as params,
      (select count(*) from settlement_days) as days`.execute(db),
    db.selectFrom('orders').select(['id', 'user_id', 'status', 'principal', 'income', 'power', 'reinvest']).orderBy('id').execute(),
    db.selectFrom('transfers').select(['id', 'user_id', 'status', 'amount']).orderBy('id').execute(),
    db.selectFrom('users').select(['id', 'inviter_id']).orderBy('id').execute(),
  ]);
  return JSON.stringify({ accounts, counts: counts.rows[0], orders, transfers, users }, (_key, value) =>
    typeof value === 'bigint' ? value.toString() : value,
  );
}
