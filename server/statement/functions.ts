import { sql } from 'kysely';
import { PLANNED_ONCE, readFunction } from '../db/readFunction.ts';
import { EARNINGS_KIND } from '../ledger/balances.ts';

/** Per account: opening, credits, debits as text, in (asset, account) order; accounts of all zeros left out. */
const TOTALS_JSON = `json_agg(json_build_object('asset', t.asset, 'account', t.account, 'opening', t.opening::text,
  'credits', t.credits::text, 'debits', t.debits::text) order by t.asset, t.account)
  filter (where t.opening <> 0 or t.credits <> 0 or t.debits <> 0)`;

/** Per asset: money in, earnings and money out as text; assets of no flow left out. */
const FLOWS_JSON = `json_agg(json_build_object('asset', f.asset, 'money_in', f.money_in::text, 'earnings', f.earnings::text,
  'money_out', f.money_out::text) order by f.asset) filter (where f.money_in <> 0 or f.earnings <> 0 or f.money_out <> 0)`;

/**
 * The page: the movements, at most `p_page`, as one array per field (`place` their rank in
 * (entry, asset, account) order; running sums and amounts as text). An array per field, not an
 * object per movement: `json_build_object` looks up the type of each of its arguments for every
 * movement, where `json_agg` does it once per array. Each array holds the movements in the same
 * order, whatever it is: the server pairs them up and sorts by `place`.
 */
const PAGE_JSON = `json_build_object('place', json_agg(m.place), 'entry_id', json_agg(m.entry_id::text), 'asset', json_agg(m.asset),
  'account', json_agg(m.account), 'amount', json_agg(m.amount::text), 'entry_kind', json_agg(m.entry_kind), 'ref', json_agg(m.ref),
  'created_at', json_agg(m.created_at), 'running', json_agg(m.running::text), 'entry_net', json_agg(m.entry_net::text))`;

/**
 * The journal entry of the posting `posting` names, as `e`, looked up by id in a subquery the
 * planner cannot merge into a join (`limit 1`): as a join, the generic plan read every journal
 * entry of the platform by a merge or hash join, for a few hundred postings.
 */
const entryOf = (posting: string) =>
  `cross join lateral (select j.kind, j.ref, j.created_at from journal_entries j where j.id = ${posting}.entry_id limit 1) e`;

/**
 * The last CTE, `page` (the movements of `ranked` up to `p_page`, per holder), and the answer: a
 * row per holder of `users` (the function's array of them) with its totals, flows and page, and
 * whether it came from the month figures (`v_rolled`).
 */
const pageAndAnswer = (ranked: string, users: 'v_rolled' | 'v_scanned') => `page as (
      select m.user_id, ${PAGE_JSON} as movements from (${ranked}) m
      where m.place <= p_page
      group by m.user_id
    )
    select h.id, ${users === 'v_rolled'}, t.totals, f.flows, g.movements
    from unnest(${users}) as h(id)
    left join account_totals t on t.user_id = h.id
    left join asset_flows f on f.user_id = h.id
    left join page g on g.user_id = h.id`;

/**
 * The first postings of the month of holder `f` (a row of `firsts`) in (entry, asset, account)
 * order, enough for a page: the two sides of `ledger_postings` read apart, as the export reads
 * them (`movements_after`). Each moved account's first `p_page + f.accounts` rows of `postings`
 * from its month's first entry, by the postings' key; and settlement's income lines of the first
 * as many entries that have any on a moved account, summed per entry and account (none of zero).
 * Each side ends at or after the page's last entry when it gave that many, so the page's postings
 * are all among them; read through the view, the month's every posting was grouped first.
 */
const monthLines = (f: string) => `
          select u.entry_id, u.asset, u.account, u.amount from (
            select s.entry_id, t.asset, t.account, s.amount
            from acc t
            cross join lateral (
              select q.entry_id, q.amount from postings q
              where q.user_id = t.user_id and q.asset = t.asset and q.kind = t.account and q.entry_id >= t.month_first_entry
              order by q.entry_id limit p_page + ${f}.accounts
            ) s
            where t.user_id = ${f}.user_id and t.moved
            union all
            select i.entry_id, 'AIC', i.account, sum(i.amount)::bigint
            from income i
            join acc t on t.user_id = i.user_id and t.asset = 'AIC' and t.account = i.account and t.moved and i.entry_id >= t.month_first_entry
            where i.user_id = ${f}.user_id and i.entry_id >= ${f}.first_entry and i.entry_id <= (
              select max(x.entry_id) from (
                select distinct l.entry_id from income l
                join acc a on a.user_id = l.user_id and a.asset = 'AIC' and a.account = l.account and a.moved and l.entry_id >= a.month_first_entry
                where l.user_id = ${f}.user_id and l.entry_id >= ${f}.first_entry
                order by l.entry_id limit p_page + ${f}.accounts
              ) x)
            group by i.entry_id, i.account
            having sum(i.amount) <> 0
          ) u
          order by u.entry_id, u.asset, u.account`;

/**
 * The figures account `a` held for the latest month it moved in up to the asked one: its own row's
 * when that month is no later, else the kept month's (`account_months`, migration 0045); none
 * when it was created after. The month's closing is the balance the account held then.
 */
const MONTH_HELD = `
        select a.month_start, a.month_first_entry as first_entry, a.balance as closing, a.month_credits as credits,
          a.month_debits as debits, a.month_in as money_in, a.month_earned as earned, a.month_out as money_out
        where a.month_start <= p_from
        union all
        (select k.month_start, k.first_entry, k.closing, k.credits, k.debits, k.money_in, k.earned, k.money_out
        from account_months k
        where a.month_start > p_from and k.user_id = a.user_id and k.asset = a.asset and k.kind = a.kind and k.month_start <= p_from
        order by k.month_start desc limit 1)`;

/**
 * The month from each account's month figures (ledger/balances.ts), for holders whose every
 * account holds the asked month's or an earlier one's, or keeps every month (`v_rolled`): the totals and flows are a
 * row per account, and the page is the holder's first `p_page` movements of the month, read
 * from the earliest first entry of the month of its moved accounts on, in one ordered pass over
 * the holder's postings, sorted before each looks up its entry so that only the page's own
 * movements do (an ordered subquery is not merged into the lookup's join; each account's own
 * pass looked up a page's worth for every account). An account's movements on the
 * page are the first of its month, so their running sums start at zero. The pass reads as many
 * postings past the page as the holder has moved accounts, less one: every posting of the page's
 * last entry (one per account at most) is then read, for its net.
 */
const ROLLED = `
    with acc as (
      select a.user_id, a.asset, a.kind as account, r.first_entry as month_first_entry, r.month_start = p_from as moved,
        r.closing - case when r.month_start = p_from then r.credits + r.debits else 0 end as opening,
        case when r.month_start = p_from then r.credits else 0 end as credits,
        case when r.month_start = p_from then r.debits else 0 end as debits,
        case when r.month_start = p_from then r.money_in else 0 end as money_in,
        case when r.month_start = p_from then r.earned else 0 end as earnings,
        case when r.month_start = p_from then r.money_out else 0 end as money_out
      from accounts a
      cross join lateral (${MONTH_HELD}) r
      where a.user_id = any(v_rolled) and (p_asset is null or a.asset = p_asset)
    ),
    account_totals as (select t.user_id, ${TOTALS_JSON} as totals from acc t group by t.user_id),
    asset_flows as (
      select f.user_id, ${FLOWS_JSON} as flows
      from (select user_id, asset, sum(money_in) as money_in, sum(earnings) as earnings, sum(money_out) as money_out
        from acc group by user_id, asset) f
      group by f.user_id
    ),
    firsts as (
      select t.user_id, min(t.month_first_entry) as first_entry, count(*)::int as accounts from acc t where t.moved group by t.user_id
    ),
    candidates as (
      select f.user_id, p.entry_id, p.asset, p.account, p.amount, p.entry_kind, p.ref, p.created_at
      from firsts f cross join lateral (
        select lp.entry_id, lp.asset, lp.account, lp.amount, e.kind as entry_kind, e.ref, e.created_at
        from (${monthLines('f')}) lp
        ${entryOf('lp')}
        where e.created_at >= p_from and e.created_at < p_to
        limit p_page + f.accounts - 1
      ) p
    ),
    ${pageAndAnswer(
      `select c.*,
        sum(c.amount) over (partition by c.user_id, c.asset, c.account order by c.entry_id)::bigint as running,
        sum(c.amount) over (partition by c.user_id, c.entry_id, c.asset)::bigint as entry_net,
        row_number() over (partition by c.user_id order by c.entry_id, c.asset, c.account) as place
      from candidates c`,
      'v_rolled',
    )}`;

/**
 * The month from the postings, for the other holders and for pages after the first: every
 * posting of the holder up to `p_to`, read once (`lines`), gives the totals, the entries' nets
 * (the flows: a settlement's positive net is earnings, any other positive one money in, a
 * negative one money out; nets of zero, between the holder's own accounts, count in none) and
 * the page after the cursor with running sums over the month.
 */
const SCANNED = `
    with lines as materialized (
      select p.user_id, p.entry_id, p.asset, p.kind as account, p.amount, e.kind as entry_kind, e.ref, e.created_at
      from ledger_postings p
      ${entryOf('p')}
      where p.user_id = any(v_scanned) and e.created_at < p_to and (p_asset is null or p.asset = p_asset)
    ),
    month as (
      select l.*,
        sum(l.amount) over (partition by l.user_id, l.asset, l.account order by l.entry_id)::bigint as running,
        sum(l.amount) over (partition by l.user_id, l.entry_id, l.asset)::bigint as entry_net
      from lines l where l.created_at >= p_from
    ),
    account_totals as (
      select t.user_id, ${TOTALS_JSON} as totals
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
      select m.user_id, m.asset, m.entry_kind, sum(m.amount) as net from month m group by m.user_id, m.entry_id, m.asset, m.entry_kind
    ),
    asset_flows as (
      select f.user_id, ${FLOWS_JSON} as flows
      from (
        select n.user_id, n.asset,
          coalesce(sum(n.net) filter (where n.net > 0 and n.entry_kind <> '${EARNINGS_KIND}'), 0) as money_in,
          coalesce(sum(n.net) filter (where n.net > 0 and n.entry_kind = '${EARNINGS_KIND}'), 0) as earnings,
          coalesce(sum(n.net) filter (where n.net < 0), 0) as money_out
        from entry_nets n group by n.user_id, n.asset
      ) f
      group by f.user_id
    ),
    ${pageAndAnswer(
      `select m.*, row_number() over (partition by m.user_id order by m.entry_id, m.asset, m.account) as place
      from month m
      where p_cursor_entry is null or (m.entry_id, m.asset, m.account) > (p_cursor_entry, p_cursor_asset, p_cursor_account)`,
      'v_scanned',
    )}`;

/**
 * `monthly_statements(users, from, to, asset, cursor…, page, scan)`: the months of several
 * holders, one row each: per account the balance before `from` and the credits and debits until
 * `to` (`totals`), per asset the month's money in, earnings and money out (`flows`), and the
 * month's movements after the cursor, at most `page`, each with its account's running sum
 * (`movements`); `rolled` says which way it was read. Amounts travel as text in the JSON, so no
 * bigint passes through a double.
 *
 * A first page is read from the accounts' month figures (`ROLLED`) when every account of the
 * holder (of the asset asked) holds the asked month, complete, or an earlier one, or keeps every
 * month it moved in (`history_known`): then it costs
 * a row per account and the page's own postings, whatever the month holds. Otherwise, and for
 * later pages or when `scan` asks it (the tests compare the two), from the postings (`SCANNED`).
 *
 * A function so that each connection plans it once: planned per call, the ledger's view over
 * every postings and income partition cost several times what running it does. Once is forced
 * (`plan_cache_mode`): left to choose, plpgsql judged the plan for any holder costlier than one
 * for the holder at hand and planned every call again. Each posting's entry is looked up by id
 * (`entryOf`).
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const MONTHLY_STATEMENTS = sql`
  create or replace function monthly_statements(
    p_users bigint[], p_from timestamptz, p_to timestamptz, p_asset text,
    p_cursor_entry bigint, p_cursor_asset text, p_cursor_account text, p_page int, p_scan boolean
  ) returns table (user_id bigint, rolled boolean, totals json, flows json, movements json)
  language plpgsql stable
  ${PLANNED_ONCE}
  as $fn$
  #variable_conflict use_column
  declare
    v_rolled bigint[] := '{}';
    v_scanned bigint[];
  begin
    if not p_scan and p_cursor_entry is null then
      select coalesce(array_agg(h.id), '{}') into v_rolled from unnest(p_users) as h(id)
      where not exists (
        select 1 from accounts a
        where a.user_id = h.id and (p_asset is null or a.asset = p_asset)
          and not a.history_known
          and (a.month_start is null or a.month_start > p_from or (a.month_start = p_from and not a.month_known)));
    end if;
    select coalesce(array_agg(h.id), '{}') into v_scanned from unnest(p_users) as h(id) where h.id <> all(v_rolled);
    if cardinality(v_rolled) > 0 then
      return query ${sql.raw(ROLLED)};
    end if;
    if cardinality(v_scanned) > 0 then
      return query ${sql.raw(SCANNED)};
    end if;
  end
  $fn$`;

/**
 * `movements_after(user, after, size)`: the holder's next postings (those of `ledger_postings`)
 * after entry `after`, ending on a whole entry (statement/repository.ts, `movementsAfter`, says
 * why the page is whole), each with its entry and what the entry moved in its asset
 * (`entry_net`). The two sides of `ledger_postings` are read apart, as the user log reads them
 * (earn/userLogFunction.ts): each account's next `size` rows of `postings` by the postings' key,
 * and settlement's income lines of the next `size` entries that have any, summed per entry and
 * account (none of zero). Whole entries on the lines' side keep the page whole: a side that gave
 * `size` rows or entries ends at or after the page's last entry. A function so that each
 * connection plans it once, and the export's pages asked at once are one statement
 * (platform/readCalls.ts).
 */
export const MOVEMENTS_AFTER = readFunction(
  sql`movements_after(p_user bigint, p_after bigint, p_size int)
    returns table (entry_id bigint, asset text, account text, amount bigint, entry_kind text, ref text, created_at timestamptz,
      entry_net bigint)`,
  sql.raw(`
    with line_entries as (
      select distinct i.entry_id from income i
      where i.user_id = p_user and i.entry_id > p_after
      order by i.entry_id limit p_size
    ),
    candidates as (
      select p.entry_id, a.asset, a.kind as account, p.amount
      from accounts a
      cross join lateral (
        select s.entry_id, s.amount from postings s
        where s.user_id = p_user and s.asset = a.asset and s.kind = a.kind and s.entry_id > p_after
        order by s.entry_id limit p_size
      ) p
      where a.user_id = p_user
      union all
      select i.entry_id, 'AIC', i.account, sum(i.amount)::bigint
      from income i
      where i.user_id = p_user and i.entry_id > p_after and i.entry_id <= (select max(l.entry_id) from line_entries l)
      group by i.entry_id, i.account
      having sum(i.amount) <> 0
    ),
    last_entry as (
      select max(h.entry_id) as id from (select entry_id from candidates order by entry_id limit p_size) h
    )
    select c.entry_id, c.asset, c.account, c.amount, e.kind, e.ref, e.created_at,
      sum(c.amount) over (partition by c.entry_id, c.asset)::bigint
    from candidates c
    join last_entry l on c.entry_id <= l.id
    ${entryOf('c')}
    order by c.entry_id, c.asset, c.account`),
);
