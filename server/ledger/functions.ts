import { sql } from 'kysely';
import { applyToBalances, monthOf } from './balances.ts';

/** Each side's net is its amount between two users, and nothing within one. */
const NET = (amount: string) => `case when p_from_user = p_to_user then 0 else ${amount} end`;
const DEBIT = `(p_from_user, p_asset, p_from_kind, -p_amount, ${monthOf('v_at')}, v_entry, p_kind, ${NET('-p_amount')})`;
const CREDIT = `(p_to_user, p_asset, p_to_kind, p_amount, ${monthOf('v_at')}, v_entry, p_kind, ${NET('p_amount')})`;
/** Both balances in one statement; VALUES yields its rows in the order written (key order). */
const movePair = (first: string, second: string) =>
  applyToBalances(`(values ${first}, ${second}) as l(user_id, asset, kind, amount, month, entry_id, entry_kind, net)`);

/**
 * `ledger_move`: the ledger's posting function for SQL code (the buy, `earn_buy`): one journal
 * entry moving `p_amount` from one account to another, its two postings, and both balances
 * through `applyToBalances`, the statement the batch form runs too (key order, the credit
 * creates its account, the debit under the CHECK). An overdraft, or a debit of a missing
 * account, raises check_violation (23514), which the caller may catch as a refusal.
 * Returns the entry's id.
 *
 * Code, not schema: `migrateToLatest` replaces it on every start (listed in
 * server/sqlFunctions.ts), so changing this text changes the function. Its signature is
 * fixed once released: `create or replace` cannot change it.
 */
export const LEDGER_MOVE = sql`
  create or replace function ledger_move(
    p_kind text, p_ref text, p_at timestamptz, p_asset text,
    p_from_user bigint, p_from_kind text, p_to_user bigint, p_to_kind text, p_amount bigint
  ) returns bigint
  language plpgsql as $fn$
  declare
    v_entry bigint;
    v_at timestamptz;
  begin
    -- Not 23514 nor P0001: a caller's handler for those must not take a bad call for a refusal.
    if p_amount is null or p_amount <= 0 or (p_from_user = p_to_user and p_from_kind = p_to_kind) then
      raise exception 'ledger_move: % from %/% to %/%', p_amount, p_from_user, p_from_kind, p_to_user, p_to_kind
        using errcode = '22023';
    end if;
    insert into journal_entries (kind, ref, created_at)
    values (p_kind, p_ref, coalesce(p_at, now())) returning id, created_at into v_entry, v_at;
    -- The two accounts in key order (user id, then kind byte by byte; one asset).
    if p_from_user < p_to_user or (p_from_user = p_to_user and p_from_kind < p_to_kind collate "C") then
      ${sql.raw(movePair(DEBIT, CREDIT))};
    else
      ${sql.raw(movePair(CREDIT, DEBIT))};
    end if;
    insert into postings (entry_id, user_id, asset, kind, amount)
    values (v_entry, p_from_user, p_asset, p_from_kind, -p_amount),
           (v_entry, p_to_user, p_asset, p_to_kind, p_amount);
    return v_entry;
  end
  $fn$`;
