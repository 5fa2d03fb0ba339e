import { sql } from 'kysely';

/**
 * `team_level(quantity, thresholds)`: the level a team quantity reaches, 0 below V1: the number
 * of thresholds (rising, as `contract/teamRules.ts` requires) at or below it. A SQL function the
 * planner inlines, so team_stats and the rebates' uplines read one rule.
 */
export const TEAM_LEVEL = sql`
  create or replace function team_level(p_quantity bigint, p_thresholds bigint[]) returns smallint
  language sql immutable parallel safe as $fn$
    select width_bucket(p_quantity, p_thresholds)::smallint
  $fn$`;

/**
 * `team_roll_up(day, held, window_from, window_to, effective)`: rolls the team up into
 * `team_roll` (migrations 0022, 0030, 0040): each member's own active AIC (orders in the statuses
 * `held`), team quantity (active AIC of the whole downline), team size and direct invitees,
 * whether the member earned on `day` what rebates are paid on (a static line above zero), and
 * what the downline did inside the recruitment activity's window [window_from, window_to): the
 * direct invitees and the members who bound in it, how many of each are effective (own AIC at
 * least `effective`, as team_stats counts it), and the subscriptions made in it still held. The
 * caller analyses the day's income first.
 *
 * Quantity and size are rolled up a depth at a time, deepest first: a member's team is its
 * children's own holdings and teams, read from the level below, so each statement joins two
 * levels and appends, nothing updated in place (an update per member cost three times as much).
 * O(members), where summing over every member's ancestor path cost O(members × depth).
 *
 * Members, their orders and the earners are joined in id order (users' and orders' keys both
 * start with it), not hashed: the keys are already in that order. Each member's parent, depth and
 * bind come from the index users_tree alone (migrations 0033, 0040), so the long paths are not
 * read. The members are written in depth order, and a block-range index finds a level's pages.
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const TEAM_ROLL_UP = sql`
  create or replace function team_roll_up(p_day date, p_held text[], p_from timestamptz, p_to timestamptz, p_effective bigint)
  returns void
  language plpgsql as $fn$
  declare
    d int;
    deepest int;
  begin
    set local enable_hashjoin = off;
    set local enable_hashagg = off;
    execute 'create temp table team_members on commit drop as
      select u.id as user_id, u.parent, u.depth, coalesce(o.active, 0)::bigint as own,
        e.user_id is not null as earner,
        coalesce(u.bound_at >= $3 and u.bound_at < $4, false) as joined,
        coalesce(o.added, 0)::bigint as added
      from users u
      left join (
        select user_id, bigint_sum(principal) as active,
          bigint_sum(principal) filter (where created_at >= $3 and created_at < $4) as added
        from orders
        where status = any($2) group by user_id
      ) o on o.user_id = u.id
      left join (
        select distinct user_id from income where day = $1 and kind = ''static'' and amount > 0
      ) e on e.user_id = u.id
      order by depth' using p_day, p_held, p_from, p_to;
    reset enable_hashjoin;
    reset enable_hashagg;
    create index on team_members using brin (depth);
    perform analyze_on_sample('team_members');
    truncate team_roll;
    create temp table team_level (parent bigint, quantity bigint, members bigint, direct bigint,
      w_direct bigint, w_direct_effective bigint, w_members bigint, w_effective bigint, w_quantity bigint) on commit drop;
    execute 'select coalesce(max(depth), 0) from team_members' into deepest;
    for d in reverse deepest..0 loop
      -- A member counts as effective as team_stats has it: listed (something held, or a team)
      -- and holding at least the minimum itself.
      execute 'create temp table team_next on commit drop as
        select m.user_id, m.parent, m.depth, m.own, coalesce(c.quantity, 0)::bigint as quantity,
          coalesce(c.members, 0)::bigint as members, coalesce(c.direct, 0)::bigint as direct, m.earner,
          m.joined, m.joined and (m.own > 0 or coalesce(c.members, 0) > 0) and m.own >= $2 as joined_effective,
          m.added, coalesce(c.w_direct, 0)::bigint as w_direct, coalesce(c.w_direct_effective, 0)::bigint as w_direct_effective,
          coalesce(c.w_members, 0)::bigint as w_members, coalesce(c.w_effective, 0)::bigint as w_effective,
          coalesce(c.w_quantity, 0)::bigint as w_quantity
        from team_members m left join team_level c on c.parent = m.user_id where m.depth = $1' using d, p_effective;
      execute 'insert into team_roll (user_id, parent, depth, own, quantity, members, direct, earner,
          window_direct, window_direct_effective, window_members, window_effective, window_quantity)
        select user_id, parent, depth, own, quantity, members, direct, earner,
          w_direct, w_direct_effective, w_members, w_effective, w_quantity from team_next';
      execute 'drop table team_level';
      execute 'create temp table team_level on commit drop as
        select parent, bigint_sum(own + quantity) as quantity, bigint_sum(1 + members) as members,
          count(*) as direct, count(*) filter (where joined) as w_direct,
          count(*) filter (where joined_effective) as w_direct_effective,
          bigint_sum(joined::int + w_members) as w_members,
          bigint_sum(joined_effective::int + w_effective) as w_effective,
          bigint_sum(added + w_quantity) as w_quantity
        from team_next where parent is not null group by parent';
      execute 'drop table team_next';
    end loop;
    drop table team_level;
    -- Written a depth at a time: the block-range index on depth (migration 0030) finds a
    -- depth's members once its ranges are summarised.
    perform brin_summarize_new_values('team_roll_depth');
    perform analyze_on_sample('team_roll');
  end
  $fn$`;

/**
 * `team_stage_uplines(generations, effective_minimum, thresholds)`: stages the day's rebates in
 * `rebate_uplines`: each earner's first `generations` effective ancestors, nearest first, with
 * the branch each is reached through (the member just below it on the way down) and its level.
 * Built from the roots down a depth at a time from `team_roll`: a member inherits its parent's
 * lists, with the parent in front when it is effective, so empty positions (not effective) are
 * skipped. O(members), where walking every member's whole path cost O(members × depth).
 *
 * A level keeps its lists in `generations` plain columns per list (a1.., b1.., l1..), shifted one
 * place when the parent is effective, and makes them arrays only for the earners it writes:
 * concatenating and slicing arrays for every member cost more than the shift. The column lists
 * are the only text built here, from the number of generations; the rules are parameters.
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const TEAM_STAGE_UPLINES = sql`
  create or replace function team_stage_uplines(p_generations int, p_effective bigint, p_thresholds bigint[])
  returns void
  language plpgsql as $fn$
  declare
    d int;
    member text := 'c.user_id, (c.own > 0 or c.members > 0) and c.own >= $1 as effective,
      (case when c.own > 0 or c.members > 0 then team_level(c.quantity, $2) else 0 end)::smallint as level,
      c.earner';
    initial text;
    inherited text;
    lists text;
  begin
    truncate rebate_uplines;
    if p_generations < 1 then return; end if;
    select string_agg(format('null::%s as %s%s', g.type, g.col, i), ', ' order by g.ord, i),
      string_agg(format('case when p.effective then %s else p.%s%s end as %s%s',
        case when i = 1 then g.front else format('p.%s%s', g.col, i - 1) end, g.col, i, g.col, i), ', ' order by g.ord, i)
    into initial, inherited
    from (values ('a', 'bigint', 'p.user_id', 1), ('b', 'bigint', 'c.user_id', 2), ('l', 'smallint', 'p.level', 3))
      as g(col, type, front, ord)
    cross join generate_series(1, p_generations) i;
    select string_agg(format('array_remove(array[%s]::%s[], null)',
      (select string_agg(g.col || i, ', ' order by i) from generate_series(1, p_generations) i), g.type), ', ' order by g.ord)
    into lists
    from (values ('a', 'bigint', 1), ('b', 'bigint', 2), ('l', 'smallint', 3)) as g(col, type, ord);
    execute format('create temp table upline_level on commit drop as
      select %s, %s from team_roll c where c.depth = 0', member, initial) using p_effective, p_thresholds;
    for d in 1..coalesce((select max(depth) from team_roll), 0) loop
      execute format('insert into rebate_uplines select user_id, %s from upline_level
        where earner and a1 is not null', lists);
      execute format('create temp table upline_next on commit drop as
        select %s, %s from team_roll c left join upline_level p on p.user_id = c.parent
        where c.depth = $3', member, inherited) using p_effective, p_thresholds, d;
      drop table upline_level;
      alter table upline_next rename to upline_level;
    end loop;
    execute format('insert into rebate_uplines select user_id, %s from upline_level
      where earner and a1 is not null', lists);
    drop table upline_level;
    -- Unanalysed, the planner would take the rebates' candidates for a handful of rows and join
    -- them back with a nested loop.
    perform analyze_on_sample('rebate_uplines');
  end
  $fn$`;
