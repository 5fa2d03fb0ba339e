import { sql } from 'kysely';

/**
 * `statement_months(users, from, to, asset, cursor…, page)`: the months of several holders, one
 * row each: per account the balance before `from` and the credits and debits until `to`
 * (`totals`), the month's entries that moved money between the holder and anyone else (`nets`),
 * and the month's movements after the cursor, at most `page`, each with its account's running sum
 * (`movements`). The holders' postings up to `to` are read once (ledger_postings folds each income
 * line into its entry's posting). Amounts travel as text in the JSON, so no bigint passes through
 * a double.
 *
 * A function so that each connection plans it once: planned per call, the ledger's view over
 * every postings and income partition cost several times what running it does. Once is forced
 * (`plan_cache_mode`): left to choose, plpgsql judged the plan for any holder costlier than one
 * for the holder at hand and planned every call again. The plan for any holder is the one a
 * single holder gets: the holder's postings by key, their entries by id. The entry is looked up
 * in a subquery the planner cannot merge into a join (`limit 1`): as a join, the generic plan
 * read every journal entry of the platform by a merge or hash join, for a few hundred postings.
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const STATEMENT_MONTHS = sql`
  create or replace function statement_months(
    p_users bigint[], p_from timestamptz, p_to timestamptz, p_asset text,
    p_cursor_entry bigint, p_cursor_asset text, p_cursor_account text, p_page int
  ) returns table (user_id bigint, totals json, nets json, movements json)
  language plpgsql stable
  set plan_cache_mode = force_generic_plan
  as $fn$
  #variable_conflict use_column
  begin
    return query
    with lines as materialized (
      select p.user_id, p.entry_id, p.asset, p.kind as account, p.amount, e.kind as entry_kind, e.ref, e.created_at
      from ledger_postings p
      cross join lateral (select j.kind, j.ref, j.created_at from journal_entries j where j.id = p.entry_id limit 1) e
      where p.user_id = any(p_users) and e.created_at < p_to and (p_asset is null or p.asset = p_asset)
    ),
    month as (
      select l.*,
        sum(l.amount) over (partition by l.user_id, l.asset, l.account order by l.entry_id)::bigint as running,
        sum(l.amount) over (partition by l.user_id, l.entry_id, l.asset)::bigint as entry_net
      from lines l where l.created_at >= p_from
    ),
    account_totals as (
      select t.user_id, json_agg(json_build_object('asset', t.asset, 'account', t.account, 'opening', t.opening::text,
        'credits', t.credits::text, 'debits', t.debits::text) order by t.asset, t.account) as totals
      from (
        select l.user_id, l.asset, l.account,
          coalesce(sum(l.amount) filter (where l.created_at < p_from), 0)::bigint as opening,
          coalesce(sum(l.amount) filter (where l.created_at >= p_from and l.amount > 0), 0)::bigint as credits,
          coalesce(sum(l.amount) filter (where l.created_at >= p_from and l.amount < 0), 0)::bigint as debits
        from lines l group by l.user_id, l.asset, l.account
      ) t
      group by t.user_id
    ),
    entry_nets as (
      select n.user_id, json_agg(json_build_object('asset', n.asset, 'entry_kind', n.entry_kind, 'ref', n.ref, 'net', n.net::text)
        order by n.entry_id, n.asset) as nets
      from (
        select m.user_id, m.entry_id, m.asset, m.entry_kind, m.ref, sum(m.amount)::bigint as net from month m
        group by m.user_id, m.entry_id, m.asset, m.entry_kind, m.ref having sum(m.amount) <> 0
      ) n
      group by n.user_id
    ),
    page as (
      select m.user_id, json_agg(json_build_object('entry_id', m.entry_id::text, 'asset', m.asset, 'account', m.account,
        'amount', m.amount::text, 'entry_kind', m.entry_kind, 'ref', m.ref, 'created_at', m.created_at,
        'running', m.running::text, 'entry_net', m.entry_net::text) order by m.entry_id, m.asset, m.account) as movements
      from (
        select m.*, row_number() over (partition by m.user_id order by m.entry_id, m.asset, m.account) as place
        from month m
        where p_cursor_entry is null or (m.entry_id, m.asset, m.account) > (p_cursor_entry, p_cursor_asset, p_cursor_account)
      ) m
      where m.place <= p_page
      group by m.user_id
    )
    select h.id, t.totals, n.nets, g.movements
    from unnest(p_users) as h(id)
    left join account_totals t on t.user_id = h.id
    left join entry_nets n on n.user_id = h.id
    left join page g on g.user_id = h.id;
  end
  $fn$`;
