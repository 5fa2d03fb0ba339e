import { sql, type Transaction } from 'kysely';
import { parseAmount, parseRate } from '../../contract/money.ts';
import type { TeamRules } from '../../contract/teamRules.ts';
import type { Database } from '../db/schema.ts';
import { PAID, payIncome } from '../income/payIncome.ts';
import { inPart, type Part, WHOLE } from '../income/parts.ts';
import { analyzeIncomeDay } from '../income/days.ts';
import { moveWithinUsers } from '../ledger/batch.ts';
import { addDays } from '../platform/clock.ts';
import { STATUS_GROUPS } from '../../contract/products.ts';
import { replaceTable } from '../db/replaceTable.ts';
import { LOCKS } from '../db/locks.ts';

type Trx = Transaction<Database>;

const units = (text: string) => {
  const parsed = parseAmount(text);
  if (!parsed.ok) throw new Error(`not an amount: ${text}`);
  return parsed.value.toString();
};

/** The rules as the SQL functions take them: amounts in units, thresholds rising. */
const effectiveMinimum = (team: TeamRules) => sql`${units(team.effectiveMinimum)}::bigint`;
const thresholds = (team: TeamRules) => sql`${team.levelThresholds.map(units)}::bigint[]`;

/** Whether a member has a row in the day's team_stats: something held, or a team. */
const listed = (r: string) => sql`(${sql.ref(`${r}.own`)} > 0 or ${sql.ref(`${r}.members`)} > 0)`;

/**
 * The day's team figures, from scratch: the roll-up (`rollUpTeam`), then `team_stats`
 * (`writeTeamStats`), in the caller's transaction. Settlement runs the two apart: nothing of the
 * day reads team_stats, so it is written beside the rebates, off the day's longer path.
 */
export async function refreshTeamStats(trx: Trx, day: string, team: TeamRules, window: TeamWindow): Promise<number> {
  await rollUpTeam(trx, day, team, window);
  return writeTeamStats(trx, day, team);
}

/** The recruitment activity's window [from, to): what the downline did inside it is rolled up too. */
export type TeamWindow = { from: Date; to: Date };

/** The day's static lines the rebates are paid on: each earner's order and amount. */
const staticSources = (day: string) => sql`
  select i.user_id as earner, i.order_id, i.amount
  from income i
  where i.day = ${day}::date and i.kind = 'static' and i.amount > 0`;

/**
 * Rolls the team up into `team_roll` (`team_roll_up`, team/functions.ts): each member's own
 * active AIC, team quantity and size, direct invitees, whether the member earned on `day`
 * what rebates are paid on, and what its downline did inside `window` (the activity page's team
 * figures). Read by `stageRebates` and `writeTeamStats`, in this transaction or
 * after it commits. A member's parent is the last entry of its path, so the figures are those of
 * the paths (which the tree check keeps consistent).
 */
export async function rollUpTeam(trx: Trx, day: string, team: TeamRules, window: TeamWindow): Promise<void> {
  // The day's static lines were written by an earlier step, so no autovacuum has seen them: on a
  // young database the planner would take them for a handful of rows, here and in the rebates,
  // which join the hundreds of thousands of candidates back to the inserted lines (with a nested
  // loop, whose time grows with the square of the holders).
  await analyzeIncomeDay(trx, day);
  await sql`select team_roll_up(${day}::date, ${[...STATUS_GROUPS.held]}::text[], ${window.from}::timestamptz,
    ${window.to}::timestamptz, ${effectiveMinimum(team)})`.execute(trx);
}

/**
 * Replaces `team_stats` with the figures of the day's roll-up (`rollUpTeam`): the members listed,
 * with their effective flag and level. Written into a table of its own and swapped in
 * (`replaceTable`): readers wait only for the swap. One swap at a time, whatever the day.
 */
export function writeTeamStats(trx: Trx, day: string, team: TeamRules): Promise<number> {
  return replaceTable(trx, TEAM_STATS, async (next) => {
    const { rows } = await sql<{ n: bigint }>`
      with inserted as (
        insert into ${sql.table(next)} (user_id, day, active, team_quantity, team_count, direct_count, effective, level,
          window_direct, window_direct_effective, window_members, window_effective, window_quantity)
        select r.user_id, ${day}::date, r.own, r.quantity, r.members::int, r.direct::int,
          r.own >= ${effectiveMinimum(team)}, team_level(r.quantity, ${thresholds(team)}),
          r.window_direct, r.window_direct_effective, r.window_members, r.window_effective, r.window_quantity
        from team_roll r
        where ${listed('r')}
        -- team_roll is by depth: in the key's order the index is built from a sorted table.
        order by r.user_id
        returning 1
      )
      select count(*) as n from inserted`.execute(trx);
    return Number(rows[0]?.n ?? 0n);
  });
}

const TEAM_STATS = { table: 'team_stats', key: ['user_id'], lock: LOCKS.teamStatsSwap };

/**
 * Stages the day's rebates in `rebate_uplines` (`team_stage_uplines`, team/functions.ts): each
 * earner's first effective ancestors, from the day's roll-up as it is (rollUpTeam runs first).
 * A table rather than a temporary one, so that the rebates' parts (payRebatesPart) can read it
 * from other connections once this transaction commits.
 */
export async function stageRebates(trx: Trx, team: TeamRules): Promise<void> {
  await sql`select team_stage_uplines(${team.rebateRates.length}::int, ${effectiveMinimum(team)}, ${thresholds(team)})`.execute(trx);
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
  const rates = team.rebateRates.map(parseRate);
  const rate = {
    numerator: sql`(${rates.map((r) => r.numerator.toString())}::numeric[])[e.generation]`,
    denominator: sql`(${rates.map((r) => r.denominator.toString())}::numeric[])[e.generation]`,
    text: sql`(${team.rebateRates.map((r) => r.trim())}::text[])[e.generation]`,
  };
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
        coalesce(div(e.amount::numeric * ${rate.numerator}, ${rate.denominator}), 0)::bigint as amount,
        'locked_rewards' as dest, 0::bigint as principal_add, 0::bigint as power_add, 0 as cycle_add,
        e.amount as source, ${rate.text} as rate,
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
  // Rising holdings: a receiver's tier is the number of holdings its own AIC reaches (0: none).
  const tiers = team.unlockTiers
    .map(([holding, share]) => ({ holding: units(holding), share, ...parseRate(share) }))
    .sort((a, b) => (BigInt(a.holding) < BigInt(b.holding) ? -1 : BigInt(a.holding) > BigInt(b.holding) ? 1 : 0));
  const tier = sql`width_bucket(coalesce(ts.own, 0), ${tiers.map((t) => t.holding)}::bigint[])`;
  const numerators = sql`${tiers.map((t) => t.numerator.toString())}::numeric[]`;
  const denominators = sql`${tiers.map((t) => t.denominator.toString())}::numeric[]`;
  return sql`
    ${sql.table(LOCKUPS_WRITTEN)} as (
      insert into lockups (user_id, day, amount, unlockable, unlock_percent, unlock_day)
      select r.user_id, ${day}::date, r.amount,
        coalesce(div(r.amount::numeric * (${numerators})[t.tier], (${denominators})[t.tier]), 0)::bigint,
        coalesce((${tiers.map((t) => t.share)}::text[])[t.tier], '0'),
        ${addDays(day, team.lockupDays)}::date
      from (select user_id, bigint_sum(amount) as amount from ${sql.table(PAID)} group by user_id) r
      -- The day's roll-up (own = team_stats.active): without an index, so it is hashed once
      -- rather than probed once per receiver. Not the staged uplines: they hold the day's
      -- earners only, and a receiver need not be one.
      left join team_roll ts on ts.user_id = r.user_id
      cross join lateral (select ${tier} as tier) t
      where r.amount > 0
      order by r.user_id
      -- A first run's are new: a plain insert, cheaper than one checking each key (a duplicate
      -- would fail the step, as a line's would).
      ${fresh ? sql`` : sql`on conflict (user_id, day) do nothing`}
      returning 1
    )`;
}

/**
 * Lock-ups whose day has come: their unlockable part becomes claimable network income. The
 * holder is told in the day's income notice (notify/dayNotices.ts, `unlocked`), not apart.
 */
export function releaseLockups(trx: Trx, day: string, at?: Date): Promise<number> {
  return moveWithinUsers(trx, {
    changes: sql`
      update lockups set released_on = ${day}::date
      where released_on is null and unlock_day <= ${day}::date
      returning user_id, unlockable as amount, day`,
    from: 'locked_rewards',
    to: 'network_rewards',
    kind: 'unlock',
    ref: `settlement:${day}:unlock`,
    at,
  });
}
