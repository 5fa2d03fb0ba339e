import { sql } from 'kysely';
import { readFunction } from '../db/readFunction.ts';

/**
 * `user_log(user, entry, kind, limit)`: the holder's postings (`ledger_postings`: settlement's
 * income lines summed per entry among them) before the cursor (entry id, account kind; the kind
 * null: the entry's postings too), newest
 * first, at most `limit`, each with its journal entry: the user log's page (earn/logs.ts). Each
 * account of the holder gives its newest `limit` postings before the cursor by a range of the
 * postings' key (user, asset, kind, entry id), and the page is the newest `limit` of those: every
 * posting of the page is among them, as in the statement's export (statement/repository.ts).
 * Grouped over the holder's whole history instead, the page cost grew with the history. Each
 * entry is looked up by id in a subquery the planner cannot make a join (`limit 1`): the generic
 * plan of a join may read every journal entry of the platform (statement/functions.ts, `entryOf`).
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const USER_LOG = readFunction(
  sql`user_log(p_user bigint, p_entry bigint, p_kind text, p_limit int)
    returns table (id bigint, kind text, ref text, created_at timestamptz, asset text, account text, amount bigint)`,
  sql`
    select e.id, e.kind, e.ref, e.created_at, c.asset, c.account, c.amount
    from (
      select p.entry_id, a.asset, a.kind as account, p.amount
      from accounts a
      cross join lateral (
        select lp.entry_id, lp.amount from ledger_postings lp
        where lp.user_id = p_user and lp.asset = a.asset and lp.kind = a.kind
          and lp.entry_id <= p_entry and (lp.entry_id < p_entry or p_kind is null or a.kind < p_kind)
        order by lp.entry_id desc limit p_limit
      ) p
      where a.user_id = p_user
      order by p.entry_id desc, a.kind desc limit p_limit
    ) c
    cross join lateral (select j.id, j.kind, j.ref, j.created_at from journal_entries j where j.id = c.entry_id limit 1) e
    order by e.id desc, c.account desc`,
);
