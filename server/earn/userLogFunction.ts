import { sql } from 'kysely';
import { readFunction } from '../db/readFunction.ts';

/**
 * `user_log(user, entry, kind, limit)`: the holder's postings (those of `ledger_postings`) before
 * the cursor (entry id, account kind; the kind null: the entry's postings too), newest first, at
 * most `limit`, each with its journal entry: the user log's page (earn/logs.ts). It reads the two
 * sides of `ledger_postings` apart, each as far as the page needs:
 * - each account's own rows of `postings`, its newest `limit` before the cursor, by a range of
 *   the postings' key (user, asset, kind, entry id) read backwards, partition after partition
 *   from the newest, stopping at the limit;
 * - settlement's income lines (AIC), summed per entry and account, none of zero, the newest
 *   `limit`: the holder's lines of each day, by the income partitions' key.
 * Every posting of the page is among those: a holder's account in an entry is on one side only
 * (settlement posts a holder's side only as lines, db/migrations/0032), and a row of `postings` is
 * never zero. Through the view instead, every page grouped the holder's whole history.
 *
 * Each entry is looked up by id in a subquery the planner cannot make a join (`limit 1`): the
 * generic plan of a join may read every journal entry of the platform (statement/functions.ts,
 * `entryOf`). `userLog.test.ts` walks random histories against the view read whole.
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const USER_LOG = readFunction(
  sql`user_log(p_user bigint, p_entry bigint, p_kind text, p_limit int)
    returns table (id bigint, kind text, ref text, created_at timestamptz, asset text, account text, amount bigint)`,
  sql`
    select e.id, e.kind, e.ref, e.created_at, c.asset, c.account, c.amount
    from (
      select u.entry_id, u.asset, u.account, u.amount
      from (
        select p.entry_id, a.asset, a.kind as account, p.amount
        from accounts a
        cross join lateral (
          select s.entry_id, s.amount from postings s
          where s.user_id = p_user and s.asset = a.asset and s.kind = a.kind
            and s.entry_id <= p_entry and (s.entry_id < p_entry or p_kind is null or a.kind < p_kind)
          order by s.entry_id desc limit p_limit
        ) p
        where a.user_id = p_user
        union all
        (select i.entry_id, 'AIC', i.account, sum(i.amount)::bigint
          from income i
          where i.user_id = p_user and i.entry_id is not null
            and i.entry_id <= p_entry and (i.entry_id < p_entry or p_kind is null or i.account < p_kind)
          group by i.entry_id, i.account
          having sum(i.amount) <> 0
          order by i.entry_id desc, i.account desc limit p_limit)
      ) u
      order by u.entry_id desc, u.account desc limit p_limit
    ) c
    cross join lateral (select j.id, j.kind, j.ref, j.created_at from journal_entries j where j.id = c.entry_id limit 1) e
    order by e.id desc, c.account desc`,
);
