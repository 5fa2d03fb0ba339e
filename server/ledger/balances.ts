/** The order accounts are written in: user id, then asset and kind byte by byte. */
export const KEY_ORDER = 'user_id, asset collate "C", kind collate "C"';

/**
 * The one statement that moves balances for set-based writers: the batch form (`batch.ts`) and
 * the SQL function `ledger_move` (`functions.ts`) both run it, so they keep the rules of
 * `postEntry` in one text. Plain SQL text with no parameters, so that it can also sit inside a
 * function body. It imports nothing: `server/db` reaches it through the function definitions.
 *
 * `source` is a FROM item named `l` with columns user_id, asset, kind, amount: one row per
 * account (merged beforehand; an upsert cannot touch one row twice), no zero amounts, in
 * `KEY_ORDER`.
 *
 * - Key order: rows are applied as the source yields them, which must be by (user_id, asset,
 *   kind) in byte order (`KEY_ORDER`), the order `postEntry` uses, so two writers over the same
 *   accounts lock them in the same order. The source orders, not this statement: a sort here
 *   cost `ledger_move` (two rows, already in order) 5% of the buy's time in the database.
 * - A credit creates the account if needed.
 * - A debit never creates one, and never goes below zero: the row it proposes may be negative
 *   (`allow_negative`) only if the account exists, so the conflict turns it into an update of
 *   the stored row, which the `balance_not_negative` CHECK then judges with the stored
 *   `allow_negative`; a debit of a missing account proposes a negative row the CHECK refuses at
 *   once. Either way the refusal is SQLSTATE 23514. (A plain upsert cannot debit: PostgreSQL
 *   checks the proposed row before it looks for the conflict.)
 * - Only the outside world's counterpart (user 0's `exchange`) may go negative, as in `postEntry`.
 * - Whether a debited account exists is asked by a scalar subquery, looked up only for the
 *   debits (the AND stops at the credits): PostgreSQL may turn an EXISTS into a hash of every
 *   account, built once per statement whatever the rows; a settlement step with a single debit
 *   then hashed every account, a cost that grew with all holders rather than the step's.
 */
export function applyToBalances(source: string): string {
  return `
    insert into accounts as a (user_id, asset, kind, balance, allow_negative)
    select l.user_id, l.asset, l.kind, l.amount,
      (l.user_id = 0 and l.kind = 'exchange')
        or (l.amount < 0 and (select true from accounts x
              where x.user_id = l.user_id and x.asset = l.asset and x.kind = l.kind) is not null)
    from ${source}
    on conflict (user_id, asset, kind) do update set balance = a.balance + excluded.balance`;
}
