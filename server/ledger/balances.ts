/** The order accounts are written in: user id, then asset and kind byte by byte. */
export const KEY_ORDER = 'user_id, asset collate "C", kind collate "C"';

/** The entry kind whose money is earnings rather than money in: settlement's (income, rebates). */
export const EARNINGS_KIND = 'settlement';

/** The account's month figures start afresh: its first movement since the month it holds, or ever. */
const NEWER = '(a.month_start is null or excluded.month_start > a.month_start)';
const SAME = '(excluded.month_start = a.month_start)';

/** A month counter: the movement's own if it starts a month, added if of the same month, left if earlier. */
const counter = (column: string) =>
  `${column} = case when ${NEWER} then excluded.${column} when ${SAME} then a.${column} + excluded.${column} else a.${column} end`;

/**
 * The one statement that moves balances, for every writer: `postEntry` (ledger.ts), the batch
 * form (`batch.ts`) and the SQL function `ledger_move` (`functions.ts`) all run it, so the rules
 * live in one text. Plain SQL text with no parameters, so that it can also sit inside a function
 * body. It imports nothing: `server/db` reaches it through the function definitions.
 *
 * `source` is a FROM item named `l` with columns user_id, asset, kind, amount (one row per
 * account, merged beforehand: an upsert cannot touch one row twice; no zero amounts; in
 * `KEY_ORDER`), and the entry's: month (the first moment of its month in UTC, `monthOf`),
 * entry_id, entry_kind, and net (the sum of the user's postings of the asset in the entry on
 * one of its rows, 0 on the others).
 *
 * - Key order: rows are applied as the source yields them, which must be by (user_id, asset,
 *   kind) in byte order (`KEY_ORDER`), so two writers over the same accounts lock them in the
 *   same order. The source orders, not this statement: a sort here cost `ledger_move` (two rows,
 *   already in order) 5% of the buy's time in the database.
 * - A credit creates the account if needed.
 * - A debit never creates one, and never goes below zero: the row it proposes may be negative
 *   (`allow_negative`) only if the account exists, so the conflict turns it into an update of
 *   the stored row, which the `balance_not_negative` CHECK then judges with the stored
 *   `allow_negative`; a debit of a missing account proposes a negative row the CHECK refuses at
 *   once. Either way the refusal is SQLSTATE 23514. (A plain upsert cannot debit: PostgreSQL
 *   checks the proposed row before it looks for the conflict.)
 * - Only the outside world's counterpart (user 0's `exchange`) may go negative.
 * - Whether a debited account exists is asked by a scalar subquery, looked up only for the
 *   debits (the AND stops at the credits): PostgreSQL may turn an EXISTS into a hash of every
 *   account, built once per statement whatever the rows; a settlement step with a single debit
 *   then hashed every account, a cost that grew with all holders rather than the step's.
 * - The month figures (migration 0038), so that a month's statement reads a row per account
 *   rather than every posting: a movement of a later month than the account's starts them
 *   afresh (the balance before it is the new month's opening), one of the same month adds to
 *   them, an earlier one (an entry dated before a later one committed) only moves the balance,
 *   and so the opening (balance less the month's credits and debits). The entry's net counts as
 *   earnings when a settlement paid it, else as money in or out by its sign; moves between the
 *   user's own accounts net to zero and count in neither.
 * - The months before (migration 0045): a trigger keeps the month figures an account leaves as it
 *   starts a new one. An account this statement creates has all its months kept
 *   (`history_known`); an earlier entry, which would change a kept month, ends that.
 */
export function applyToBalances(source: string): string {
  return `
    insert into accounts as a (user_id, asset, kind, balance, allow_negative, month_start, month_known, month_first_entry,
      month_credits, month_debits, month_in, month_earned, month_out, history_known)
    select l.user_id, l.asset, l.kind, l.amount,
      (l.user_id = 0 and l.kind = 'exchange')
        or (l.amount < 0 and (select true from accounts x
              where x.user_id = l.user_id and x.asset = l.asset and x.kind = l.kind) is not null),
      l.month, true, l.entry_id, greatest(l.amount, 0), least(l.amount, 0),
      case when l.net > 0 and l.entry_kind <> '${EARNINGS_KIND}' then l.net else 0 end,
      case when l.net > 0 and l.entry_kind = '${EARNINGS_KIND}' then l.net else 0 end,
      least(l.net, 0), true
    from ${source}
    on conflict (user_id, asset, kind) do update set balance = a.balance + excluded.balance,
      history_known = coalesce(a.history_known and excluded.month_start >= a.month_start, false),
      month_start = greatest(a.month_start, excluded.month_start),
      month_known = case when ${NEWER} then a.month_start is not null else a.month_known end,
      month_first_entry = case when ${NEWER} then excluded.month_first_entry
        when ${SAME} then least(a.month_first_entry, excluded.month_first_entry) else a.month_first_entry end,
      ${['month_credits', 'month_debits', 'month_in', 'month_earned', 'month_out'].map(counter).join(',\n      ')}`;
}

/** The first moment, in UTC, of the month of `at` (SQL text of a timestamptz): the month figures' month. */
export const monthOf = (at: string) => `date_trunc('month', ${at}, 'UTC')`;
