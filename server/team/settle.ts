import { sql, type Transaction } from 'kysely';
import { parseAmount, parseRate } from '../../contract/money.ts';
import type { TeamRules } from '../../contract/teamRules.ts';
import type { Database } from '../db/schema.ts';
import { PAID, payIncome } from '../income/payIncome.ts';
import { inPart, type Part, WHOLE } from '../income/parts.ts';
import { analyzeIncomeDay } from '../income/days.ts';
import { moveWithinUsers } from '../ledger/batch.ts';
import { addDays } from '../platform/clock.ts';
import { ORDERS } from '../db/statuses.ts';
import { analyzeOnSample } from '../db/analyze.ts';
import { decimalText, noticesFrom } from '../notify/notices.ts';
import { LOCKS } from '../db/locks.ts';

type Trx = Transaction<Database>;

const units = (text: string) => {
  const parsed = parseAmount(text);
  if (!parsed.ok) throw new Error(`not an amount: ${text}`);
  return parsed.value.toString();
};

/** A SQL CASE that maps a bigint expression to the highest threshold it reaches (0 if none). */
function levelCase(expression: string, thresholds: string[]): string {
  const arms = thresholds
    .map((t, i) => ({ level: i + 1, units: units(t) }))
    .reverse()
    .map((t) => `when ${expression} >= ${t.units} then ${t.level}`)
    .join(' ');
  return `case ${arms} else 0 end`;
}

/** Whether a member has a row in the day's team_stats: something held, or a team. */
const listed = (r: string) => sql.raw(`(${r}.own > 0 or ${r}.members > 0)`);

/** A rolled-up member's effective flag and level, as team_stats records them. */
function figures(r: string, team: TeamRules) {
  return {
    effective: sql.raw(`${r}.own >= ${units(team.effectiveMinimum)}`),
    level: sql.raw(levelCase(`${r}.quantity`, team.levelThresholds)),
  };
}

/**
 * The day's team figures, from scratch: the roll-up (`rollUpTeam`), then `team_stats`
 * (`writeTeamStats`), in the caller's transaction. Settlement runs the two apart: nothing of the
 * day reads team_stats, so it is written beside the rebates, off the day's longer path.
 */
export async function refreshTeamStats(trx: Trx, day: string, team: TeamRules): Promise<number> {
  await rollUpTeam(trx, day);
  return writeTeamStats(trx, day, team);
}

/** The day's static lines the rebates are paid on: each earner's order and amount. */
const staticSources = (day: string) => sql`
  select i.user_id as earner, i.order_id, i.amount
  from income i
  where i.day = ${day}::date and i.kind = 'static' and i.amount > 0`;

/**
 * Rolls the team up into `team_roll` (migrations 0022, 0030): each member's own active AIC, team
 * quantity (active AIC of the whole downline), team size and direct invitees, and whether the
 * member earned on `day` what rebates are paid on (a static line above zero). Read by
 * `stageRebates` and `writeTeamStats`, in this transaction or after it commits.
 *
 * Team quantity and size are rolled up the tree a depth at a time, deepest first: a member's
 * team is its children's own holdings and teams. That costs O(members), where summing over
 * every member's ancestor path cost O(members × depth). A member's parent is the last entry
 * of its path, so the figures are those of the paths (which the tree check keeps consistent).
 */
export async function rollUpTeam(trx: Trx, day: string): Promise<void> {
  // The day's static lines were written by an earlier step, so no autovacuum has seen them: on a
  // young database the planner would take them for a handful of rows, here and in the rebates,
  // which join the hundreds of thousands of candidates back to the inserted lines (with a nested
  // loop, whose time grows with the square of the holders). Analysing samples a fixed number of
  // rows, whatever the table's size; the day's partition is the one those statements read.
  await analyzeIncomeDay(trx, day);
  // Members, their orders and the earners joined in id order (users' and orders' keys both start
  // with it), not hashed: the keys are already in that order, so a merge costs less than hashing
  // every order's sum and every member. Each member's parent and depth come from the index
  // users_tree alone (migration 0033), so the users' rows with their long paths are not read.
  await sql`set local enable_hashjoin = off`.execute(trx);
  await sql`set local enable_hashagg = off`.execute(trx);
  await sql`
    create temp table team_members on commit drop as
    select u.id as user_id, u.parent, u.depth,
      coalesce(o.active, 0)::bigint as own, e.user_id is not null as earner
    from users u
    left join (
      select user_id, bigint_sum(principal) as active from orders
      where status in ${ORDERS.held} group by user_id
    ) o on o.user_id = u.id
    left join (select distinct earner as user_id from (${staticSources(day)}) s) e on e.user_id = u.id
    order by depth`.execute(trx);
  await sql`reset enable_hashjoin`.execute(trx);
  await sql`reset enable_hashagg`.execute(trx);
  // Written in depth order, each depth's members on pages of their own: a block-range index
  // finds a level's pages, smaller and quicker to build and read than a B-tree over members in id
  // order.
  await sql`create index on team_members using brin (depth)`.execute(trx);
  await analyzeOnSample(trx, 'team_members');
  await sql`truncate team_roll`.execute(trx);
  // Deepest level first, each level in a table of its own: a member's team is the sum of its
  // children's (own + team), read from the level below, so every statement joins two levels
  // and appends; nothing is updated in place (an update per member cost three times as much).
  await sql`
    do $$
    declare d int;
    begin
      create temp table team_level (parent bigint, quantity bigint, members bigint, direct bigint) on commit drop;
      for d in reverse coalesce((select max(depth) from team_members), 0)..0 loop
        execute 'create temp table team_next on commit drop as
          select m.user_id, m.parent, m.depth, m.own, coalesce(c.quantity, 0)::bigint as quantity,
            coalesce(c.members, 0)::bigint as members, coalesce(c.direct, 0)::bigint as direct, m.earner
          from team_members m left join team_level c on c.parent = m.user_id where m.depth = $1' using d;
        execute 'insert into team_roll (user_id, parent, depth, own, quantity, members, direct, earner)
          select user_id, parent, depth, own, quantity, members, direct, earner from team_next';
        execute 'drop table team_level';
        execute 'create temp table team_level on commit drop as
          select parent, bigint_sum(own + quantity) as quantity, bigint_sum(1 + members) as members,
            count(*) as direct
          from team_next where parent is not null group by parent';
        execute 'drop table team_next';
      end loop;
      drop table team_level;
    end $$`.execute(trx);
  // Written a depth at a time: the block-range index on depth (migration 0030) finds a depth's
  // members once its ranges are summarised.
  await sql`select brin_summarize_new_values('team_roll_depth')`.execute(trx);
  await analyzeOnSample(trx, 'team_roll');
}

/**
 * Replaces `team_stats` with the figures of the day's roll-up (`rollUpTeam`): the members listed.
 * Written into a table of its own, indexed once, and swapped in at the end of the transaction
 * (readers wait only for the swap): deleting every row and inserting every row into the primary
 * key cost more, and left as many dead rows to vacuum. One swap at a time, whatever the day.
 */
export async function writeTeamStats(trx: Trx, day: string, team: TeamRules): Promise<number> {
  await sql`select pg_advisory_xact_lock(${LOCKS.teamStatsSwap})`.execute(trx);
  await sql`drop table if exists team_stats_next`.execute(trx);
  await sql`create table team_stats_next (like team_stats including defaults including constraints)`.execute(trx);
  const { effective, level } = figures('r', team);
  const { rows } = await sql<{ n: bigint }>`
    with inserted as (
      insert into team_stats_next (user_id, day, active, team_quantity, team_count, direct_count, effective, level)
      select r.user_id, ${day}::date, r.own, r.quantity, r.members::int, r.direct::int, ${effective}, ${level}
      from team_roll r
      where ${listed('r')}
      -- team_roll is by depth: in the key's order the index is built from a sorted table.
      order by r.user_id
      returning 1
    )
    select count(*) as n from inserted`.execute(trx);
  await sql`alter table team_stats_next add constraint team_stats_next_pkey primary key (user_id)`.execute(trx);
  // A new table has no statistics until autovacuum comes: the team pages' plans need them now.
  await sql`analyze team_stats_next`.execute(trx);
  await sql`drop table team_stats`.execute(trx);
  await sql`alter table team_stats_next rename to team_stats`.execute(trx);
  await sql`alter index team_stats_next_pkey rename to team_stats_pkey`.execute(trx);
  return Number(rows[0]?.n ?? 0n);
}

/**
 * Stages the day's rebates in `rebate_uplines`: each member's first `generations` effective
 * ancestors, nearest first, with the branch each is reached through (the
 * member just below it on the way down) and its level (so the rebates need no lookup per
 * ancestor), built top down a depth at a time: a member inherits its parent's lists, with the
 * parent in front when it is effective. Empty positions (not effective) are thereby skipped.
 * O(members), where walking every member's whole path cost O(members × depth). Reads the day's
 * roll-up as it is (rollUpTeam, or refreshTeamStats, runs first: a depth's members found by the
 * block-range index), and the rebates read the day's static lines, so the pool's output is paid
 * before. A table rather than a temporary one, so that the rebates' parts (payRebatesPart) can
 * read it from other connections once this transaction commits.
 *
 * Only the day's earners (a static line above zero) with an effective ancestor are
 * written: they are all the rebates read, and each part hashes the table whole (the earners
 * are a fraction of the members).
 */
export async function stageRebates(trx: Trx, team: TeamRules): Promise<void> {
  const generations = team.rebateRates.length;
  // The members as the day's figures rolled them up (rollUpTeam): effective and level as
  // team_stats has them, without reading users' paths a second time. Plain SQL of numbers and
  // the columns of `c`: safe to write into the block below.
  const { effective, level } = figures('c', team);
  const member = sql`c.user_id, ${listed('c')} and ${effective} as effective,
    (case when ${listed('c')} then ${level} else 0 end)::smallint as level, c.earner`;
  await sql`truncate rebate_uplines`.execute(trx);
  // A whole number from the configured rates: the lists' length, written into the block below.
  const n = Math.max(0, Math.trunc(generations));
  if (n === 0) return;
  const { initial, inherited, lists } = uplineColumns(n);
  // A level at a time from the roots, each level in a table of its own joined to the one above
  // and appended to uplines; nothing is updated in place (growing arrays moved every row). A
  // level keeps its lists in n plain columns each, shifted one place when the parent is
  // effective, and makes them arrays only for the earners it writes: concatenating and slicing
  // arrays for every member cost more than the shift.
  await sql`
    do $$
    declare d int;
    begin
      create temp table upline_level on commit drop as
        select ${member}, ${initial} from team_roll c where c.depth = 0;
      for d in 1..coalesce((select max(depth) from team_roll), 0) loop
        execute 'insert into rebate_uplines select user_id, ${lists} from upline_level
          where earner and a1 is not null';
        execute 'create temp table upline_next on commit drop as
          select ${member}, ${inherited}
          from team_roll c left join upline_level p on p.user_id = c.parent
          where c.depth = $1' using d;
        execute 'drop table upline_level';
        execute 'alter table upline_next rename to upline_level';
      end loop;
      execute 'insert into rebate_uplines select user_id, ${lists} from upline_level
        where earner and a1 is not null';
      drop table upline_level;
    end $$`.execute(trx);
  // Statistics of the filled lists: unanalysed, the planner would take the rebates' candidates
  // for a handful of rows and join them back with a nested loop.
  await analyzeOnSample(trx, 'rebate_uplines');
}

/**
 * A level's upline lists of `n` places (n >= 1) as plain columns: a1..an the effective ancestors,
 * nearest first, b1..bn the branch each is reached through, l1..ln their levels, unused places
 * null (the places fill from the front). `initial` for the roots (empty lists), `inherited` for a
 * member `c` below its parent's row `p` (the parent in front when effective, the rest shifted
 * back), `lists` the three arrays rebate_uplines keeps. SQL of column names and the number n only.
 */
function uplineColumns(n: number) {
  const places = Array.from({ length: n }, (_, i) => i + 1);
  const groups = [
    { column: 'a', type: 'bigint', front: 'p.user_id' },
    { column: 'b', type: 'bigint', front: 'c.user_id' },
    { column: 'l', type: 'smallint', front: 'p.level' },
  ];
  const each = (f: (g: (typeof groups)[number], i: number) => string) =>
    sql.raw(groups.flatMap((g) => places.map((i) => f(g, i))).join(', '));
  return {
    initial: each((g, i) => `null::${g.type} as ${g.column}${i}`),
    inherited: each(
      (g, i) => `case when p.effective then ${i === 1 ? g.front : `p.${g.column}${i - 1}`} else p.${g.column}${i} end as ${g.column}${i}`,
    ),
    lists: sql.raw(
      groups.map((g) => `array_remove(array[${places.map((i) => `${g.column}${i}`).join(', ')}]::${g.type}[], null)`).join(', '),
    ),
  };
}

/**
 * Rebates on the day's static earnings: walking up from each earner, empty positions (not
 * effective) are skipped, the next effective ancestors are generations 1, 2, … and a level Vk
 * earns up to k generations, at the generation's rate. Paid from the treasury into the
 * receiver's locked network income; one row per (receiver, source order, day), what it was
 * computed from in the line's own columns (income/inputs.ts), and each receiver's lock-up of the
 * day, in one statement. Runs after the day's roll-up (rollUpTeam or
 * refreshTeamStats), which it reads; settlement runs the same in parts (stageRebates, then
 * payRebatesPart on two connections).
 */
export async function payRebates(trx: Trx, day: string, team: TeamRules, at?: Date) {
  await stageRebates(trx, team);
  return payRebatesPart(trx, day, team, WHOLE, at);
}

/**
 * The rebates of the receivers in `part` (by a hash of the receiver's id, `income/parts.ts`), as
 * staged by stageRebates (committed, or earlier in this transaction): the parts can be paid side
 * by side on two connections, each exactly once (a part run again pays only its lines not there
 * yet).
 */
export async function payRebatesPart(trx: Trx, day: string, team: TeamRules, part: Part, at?: Date) {
  const rates = team.rebateRates.map((rate, i) => {
    const { numerator, denominator } = parseRate(rate);
    return `when ${i + 1} then div(e.amount::numeric * ${numerator}, ${denominator})`;
  });
  // The rates were parsed above, so each is a plain decimal and safe to write into the SQL.
  const rateText = team.rebateRates.map((rate, i) => `when ${i + 1} then '${rate.trim()}'`);
  return payIncome(trx, {
    day,
    kind: 'rebate',
    from: 'treasury',
    at,
    part,
    also: { ctes: (fresh) => lockupsOf(day, team, fresh), writes: [LOCKUPS_WRITTEN] },
    candidates: sql`
      with source as (${staticSources(day)}),
      -- Each earner's lists side by side, one row per position (they are of one length), unnested
      -- in one projection over the table: cheaper than a function scan per earner.
      uplines as (
        select user_id, unnest(anc) as ancestor, unnest(br) as branch, unnest(lv) as level,
          generate_subscripts(anc, 1) as generation
        from rebate_uplines
      ),
      effective as (
        select s.earner, s.order_id, s.amount, x.ancestor, x.branch, x.generation, x.level
        from source s
        join uplines x on x.user_id = s.earner
        -- A path can only hold its own holder through a referral cycle (the tree check reports
        -- it): never pay anyone on their own earnings.
        where x.ancestor <> s.earner and ${inPart('x.ancestor', part)}
      )
      select e.ancestor as user_id, e.order_id,
        (case e.generation ${sql.raw(rates.join(' '))} else 0 end)::bigint as amount,
        'locked_rewards' as dest, 0::bigint as principal_add, 0::bigint as power_add, 0 as cycle_add,
        e.amount as source, case e.generation ${sql.raw(rateText.join(' '))} end as rate,
        e.generation::smallint as generation, e.level, e.earner, e.branch
      from effective e
      where e.generation <= ${team.rebateRates.length} and e.generation <= e.level`,
  });
}

/** The lock-ups' CTE in the rebates' statement. */
const LOCKUPS_WRITTEN = 'lockups_written';

/**
 * The day's network income goes into a lock-up: the share the holder's own active AIC unlocks
 * (tiers) becomes claimable after the lock-up days; the rest stays locked. CTEs of the rebates'
 * statement, from what it paid (one sum per receiver), so the day's rebate lines are not read again;
 * what the receiver holds comes from the day's roll-up (rollUpTeam).
 */
function lockupsOf(day: string, team: TeamRules, fresh: boolean) {
  const tiers = team.unlockTiers
    .map(([holding, share]) => ({ holding: units(holding), share }))
    .sort((a, b) => (BigInt(b.holding) > BigInt(a.holding) ? 1 : -1));
  const percent = tiers.map((t) => `when coalesce(ts.own, 0) >= ${t.holding} then '${t.share}'`).join(' ');
  const unlockable = tiers
    .map((t) => {
      const { numerator, denominator } = parseRate(t.share);
      return `when coalesce(ts.own, 0) >= ${t.holding} then div(r.amount::numeric * ${numerator}, ${denominator})`;
    })
    .join(' ');
  return sql`
    ${sql.table(LOCKUPS_WRITTEN)} as (
      insert into lockups (user_id, day, amount, unlockable, unlock_percent, unlock_day)
      select r.user_id, ${day}::date, r.amount,
        (case ${sql.raw(unlockable)} else 0 end)::bigint,
        case ${sql.raw(percent)} else '0' end,
        ${addDays(day, team.lockupDays)}::date
      from (select user_id, bigint_sum(amount) as amount from ${sql.table(PAID)} group by user_id) r
      -- The day's roll-up (own = team_stats.active): without an index, so it is hashed once
      -- rather than probed once per receiver. Not the staged uplines: they hold the day's
      -- earners only, and a receiver need not be one.
      left join team_roll ts on ts.user_id = r.user_id
      where r.amount > 0
      order by r.user_id
      -- A first run's are new: a plain insert, cheaper than one checking each key (a duplicate
      -- would fail the step, as a line's would).
      ${fresh ? sql`` : sql`on conflict (user_id, day) do nothing`}
      returning 1
    )`;
}

/**
 * Lock-ups whose day has come: their unlockable part becomes claimable network income, and the
 * holder is told (when there is something to claim), in the same statement.
 */
export function releaseLockups(trx: Trx, day: string, at?: Date): Promise<number> {
  return moveWithinUsers(trx, {
    changes: sql`
      update lockups set released_on = ${day}::date
      where released_on is null and unlock_day <= ${day}::date
      returning user_id, unlockable as amount, day`,
    also: sql`told as (${noticesFrom(
      'lockup_released',
      sql`select user_id, day::text as key, jsonb_build_object('day', day::text, 'amount', ${decimalText('amount')}) as params
        from changed where amount > 0`,
      at,
    )})`,
    from: 'locked_rewards',
    to: 'network_rewards',
    kind: 'unlock',
    ref: `settlement:${day}:unlock`,
    at,
  });
}
