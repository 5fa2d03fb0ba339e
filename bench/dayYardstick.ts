/**
 * The yardstick of bench/day: the same whole day written by hand as plain set-based SQL, one
 * statement per piece of work, one after the other on one connection, with nothing of the app's
 * machinery (no declared steps run two at a time, no staged uplines or roll-up by depth, no
 * ledger batch form, no proof built in parts, no locks, no re-run or shortfall handling). On a
 * schema of its own, populated as bench/day populates the app's (bench/population.ts: the same
 * holders, tree, orders, funding and proof nonces), all three days are settled by hand, each
 * after the same vacuum as the app's days: the third starts from the state the app's third starts
 * from (its history tables two days full), and what the days pay agrees with the app's to the
 * unit (dayTotals). Each day:
 *
 * - its income partition, made with one plain statement (the app makes the day's partitions too);
 * - the fixed accrual, the pool's output (capped at the maximum daily rate) and the current
 *   cycles: bench/settlementYardstick.ts;
 * - the team figures into team_stats: each member's own held AIC, and the team's quantity and
 *   size from one aggregation over every member's ancestor path (members × depth rows);
 * - the rebates over the paths (rollup.test.ts's reference: effective ancestors numbered nearest
 *   first, a level Vk earning up to k generations), each receiver's lock-up with its unlock tier,
 *   paid from the treasury into locked rewards as one journal entry with its balances;
 * - maturities (fixed orders redeemable, 360-day orders ended and repaid, confirmations) and
 *   lock-up releases: in bench/day's three days none is due, so these find nothing;
 * - the proof of liabilities: each holder's leaf (balances pivoted from the accounts, hashed as
 *   the app hashes a leaf, placed by the same secret shuffle key) stored in a table of the day
 *   with its indexes, the Merkle sum tree up to the root a level per statement, the root stored.
 *
 * Its statements run with the settings the app's steps take (work_mem, no JIT), and the tables
 * it has just filled (the day's income, team_stats) are analysed before they are read, as the
 * app's steps do. What it leaves out: the holders' income totals by kind and branch (migration
 * 0037), the day's settlement_days row and its income notice (one row), renewals (none due), the
 * nonces of holders on their first day (none: all are drawn before), the proof's checks (negative
 * balances, holders without a nonce, the ledger's total cross-checked) and its stored levels
 * above the leaves, and everything the app does for a run resumed or settled twice.
 */
import { type RawBuilder, sql } from 'kysely';
import { assetField, CHUNK_BITS, LEAF, NODE } from '../contract/merkle.ts';
import { parseAmount } from '../contract/money.ts';
import type { TeamRules } from '../contract/teamRules.ts';
import { ASSETS } from '../contract/wallet.ts';
import type { Db } from '../server/db/connect.ts';
import { ORDERS, productsIn } from '../server/db/statuses.ts';
import { type EarnParams, earnParams } from '../server/earn/params.ts';
import { checkLedger } from '../server/ledger/ledger.ts';
import { addDays } from '../server/platform/clock.ts';
import { LEAF_KINDS } from '../server/proof/build.ts';
import { teamRules } from '../server/team/rules.ts';
import { benchContext, onScratchSchema } from './context.ts';
import { populate, vacuumBefore } from './population.ts';
import { books, entryId, handWrittenDay, type Rate, rateOf, run, type StepResult, stepTimer, yardstickRates } from './settlementYardstick.ts';

/** The team rules as the yardstick's SQL takes them: amounts in units. */
type Team = {
  effectiveMinimum: bigint;
  thresholds: bigint[];
  rates: Rate[];
  /** Highest holding first: a receiver's tier is the first its own AIC reaches. */
  tiers: { holding: bigint; share: Rate }[];
  lockupDays: number;
};

const units = (text: string): bigint => {
  const parsed = parseAmount(text);
  if (!parsed.ok) throw new Error(`not an amount: ${text}`);
  return parsed.value;
};

const teamOf = (rules: TeamRules): Team => ({
  effectiveMinimum: units(rules.effectiveMinimum),
  thresholds: rules.levelThresholds.map(units),
  rates: rules.rebateRates.map(rateOf),
  tiers: rules.unlockTiers
    .map(([holding, share]) => ({ holding: units(holding), share: rateOf(share) }))
    .sort((a, b) => (a.holding > b.holding ? -1 : a.holding < b.holding ? 1 : 0)),
  lockupDays: rules.lockupDays,
});

const incomePartition = (day: string) => sql.table(`income_yardstick_${day.replaceAll('-', '')}`);

/** The day's income partition, as one would make it by hand. */
async function createPartition(db: Db, day: string): Promise<void> {
  await sql`create table ${incomePartition(day)} partition of income
    for values from (${sql.lit(day)}) to (${sql.lit(addDays(day, 1))})`.execute(db);
}

/**
 * team_stats replaced in one transaction: a member's own held AIC, and its team's quantity and
 * size from every member's path unnested (each member counts once for each of its ancestors).
 */
function teamFigures(db: Db, day: string, team: Team): Promise<void> {
  return db.transaction().execute(async (trx) => {
    await sql`truncate team_stats`.execute(trx);
    await sql`
      insert into team_stats (user_id, day, active, team_quantity, team_count, direct_count, effective, level)
      with own as (
        select user_id, sum(principal)::bigint as active from orders where status in ${ORDERS.held} group by user_id
      ),
      teams as (
        select a.ancestor as user_id, coalesce(sum(o.active), 0)::bigint as quantity, count(*) as members
        from users u cross join unnest(u.path) as a(ancestor)
        left join own o on o.user_id = u.id
        group by a.ancestor
      ),
      direct as (select inviter_id as user_id, count(*) as n from users where inviter_id is not null group by inviter_id)
      select u.id, ${day}::date, coalesce(o.active, 0), coalesce(t.quantity, 0), coalesce(t.members, 0), coalesce(d.n, 0),
        coalesce(o.active, 0) >= ${team.effectiveMinimum},
        width_bucket(coalesce(t.quantity, 0), ${team.thresholds.map(String)}::bigint[])
      from users u
      left join own o on o.user_id = u.id
      left join teams t on t.user_id = u.id
      left join direct d on d.user_id = u.id
      where coalesce(o.active, 0) > 0 or coalesce(t.members, 0) > 0`.execute(trx);
    await sql`analyze team_stats`.execute(trx);
  });
}

/** `value(tier)` of the first tier whose holding `own` reaches, else `otherwise`. */
const byTier = (team: Team, own: RawBuilder<unknown>, value: (share: Rate) => RawBuilder<unknown>, otherwise: RawBuilder<unknown>) =>
  sql`case ${sql.join(
    team.tiers.map((t) => sql`when ${own} >= ${t.holding} then ${value(t.share)}`),
    sql` `,
  )} else ${otherwise} end`;

/**
 * The rebates on the day's static lines, path by path: each earner's ancestors that are
 * effective, numbered nearest first, pay a level Vk up to k generations at the generation's
 * rate; with each receiver's lock-up of the day and the treasury's entry, in one statement.
 */
function rebates(db: Db, day: string, team: Team): Promise<StepResult> {
  const atGeneration = (values: string[], type: string) => sql`(${values}::${sql.raw(type)}[])[n.generation]`;
  const num = atGeneration(team.rates.map((r) => r.num.toString()), 'numeric');
  const den = atGeneration(team.rates.map((r) => r.den.toString()), 'numeric');
  const text = atGeneration(team.rates.map((r) => r.text), 'text');
  const own = sql`coalesce(t.active, 0)`;
  return run(
    db,
    sql<StepResult>`
      with ${entryId},
      source as (
        select i.user_id as earner, i.order_id, i.amount, u.path
        from income i join users u on u.id = i.user_id
        where i.day = ${day}::date and i.kind = 'static' and i.amount > 0
      ),
      -- Each ancestor beside the member below it (its branch): the path shifted by one, so the
      -- paths are not carried on to the numbering's sort.
      ancestors as (
        select s.earner, s.order_id, s.amount, a.ancestor, a.branch, a.pos
        from source s cross join unnest(s.path, s.path[2:] || s.earner) with ordinality as a(ancestor, branch, pos)
        where a.ancestor <> s.earner
      ),
      numbered as (
        select x.*, t.level, row_number() over (partition by x.earner, x.order_id order by x.pos desc) as generation
        from ancestors x join team_stats t on t.user_id = x.ancestor and t.effective
      ),
      paid as (
        insert into income (user_id, order_id, day, kind, amount, source, rate, generation, level, earner, branch, entry_id, account)
        select n.ancestor, n.order_id, ${day}::date, 'rebate', div(n.amount::numeric * ${num}, ${den})::bigint,
          n.amount, ${text}, n.generation, n.level, n.earner, n.branch, (select id from entry_id), 'locked_rewards'
        from numbered n
        where n.generation <= ${team.rates.length} and n.generation <= n.level
        returning user_id, amount, account as dest
      ),
      locked as (
        insert into lockups (user_id, day, amount, unlockable, unlock_percent, unlock_day)
        select r.user_id, ${day}::date, r.amount,
          ${byTier(team, own, (share) => sql`div(r.amount::numeric * ${share.num}, ${share.den})::bigint`, sql`0`)},
          ${byTier(team, own, (share) => sql`${share.text}`, sql`'0'`)},
          ${addDays(day, team.lockupDays)}::date
        from (select user_id, sum(amount)::bigint as amount from paid group by user_id) r
        left join team_stats t on t.user_id = r.user_id
        where r.amount > 0
        returning 1
      ),
      ${books(`yardstick:${day}:rebate`, 'treasury')}`,
  );
}

/**
 * After a `changed` CTE (user_id, amount): each holder's amount moved from account `from` to
 * `to`, one journal entry with a posting on each side and the balances.
 */
const moved = (ref: string, from: string, to: string) => sql`
  per_user as (select user_id, sum(amount)::bigint as amount from changed where amount > 0 group by user_id),
  entry as (
    insert into journal_entries (kind, ref) select 'yardstick', ${ref} where exists (select 1 from per_user) returning id
  ),
  posted as (
    insert into postings (entry_id, user_id, asset, kind, amount)
    select e.id, p.user_id, 'AIC', k.kind, k.sign * p.amount
    from entry e cross join per_user p cross join (values (${from}::text, -1), (${to}::text, 1)) as k(kind, sign)
    returning 1
  ),
  credited as (
    insert into accounts as a (user_id, asset, kind, balance)
    select user_id, 'AIC', ${to}, amount from per_user
    on conflict (user_id, asset, kind) do update set balance = a.balance + excluded.balance
    returning 1
  ),
  debited as (
    update accounts a set balance = a.balance - p.amount from per_user p
    where a.user_id = p.user_id and a.asset = 'AIC' and a.kind = ${from}
    returning 1
  )
  select (select count(*) from changed)::bigint as rows, (select coalesce(sum(amount), 0) from per_user)::bigint as total`;

/** A notice of `kind` to the holder of each row of `changed` (where `which`), as a CTE. */
const told = (kind: string, notice: { key: RawBuilder<unknown>; params: RawBuilder<unknown>; which?: RawBuilder<unknown> }, at: Date) => sql`
  told as (
    insert into notifications (user_id, kind, key, params, created_at)
    select user_id, ${kind}, ${notice.key}, ${notice.params}, ${at}::timestamptz from changed where ${notice.which ?? sql`true`}
    returning 1
  )`;

/**
 * Orders at the end of their term: fixed ones become redeemable (the bench's have no auto-renew),
 * 360-day ones end and repay their principal to the wallet; then the orders bought on the day start.
 */
async function maturities(db: Db, day: string, at: Date): Promise<void> {
  const next = addDays(day, 1);
  await run(
    db,
    sql<StepResult>`
      with changed as (
        update orders set status = 'redeemable'
        where product in ${productsIn('fixed')} and status in ${ORDERS.active} and matures_day <= ${next}::date
        returning user_id, id, principal, income
      ),
      ${told(
        'order_redeemable',
        { key: sql`id::text`, params: sql`jsonb_build_object('order', id::text, 'principal', principal::text, 'income', income::text)` },
        at,
      )}
      select (select count(*) from changed)::bigint as rows, 0::bigint as total`,
  );
  await run(
    db,
    sql<StepResult>`
      with changed as (
        update orders set status = 'ended', closed_at = ${at}
        where product in ${productsIn('pool')} and status in ${ORDERS.active} and matures_day <= ${next}::date
        returning user_id, id, principal as amount
      ),
      ${told('order_ended', { key: sql`id::text`, params: sql`jsonb_build_object('order', id::text, 'principal', amount::text)` }, at)},
      ${moved(`yardstick:${day}:term_end`, 'earning', 'wallet')}`,
  );
  await sql`update orders set status = case when reinvest then 'reinvested' else 'in_progress' end
    where status = 'confirming' and start_day <= ${next}::date`.execute(db);
}

/** Lock-ups whose day has come: their unlockable part becomes claimable network income. */
function releases(db: Db, day: string, at: Date): Promise<StepResult> {
  return run(
    db,
    sql<StepResult>`
      with changed as (
        update lockups set released_on = ${day}::date
        where released_on is null and unlock_day <= ${day}::date
        returning user_id, unlockable as amount, day
      ),
      ${told(
        'lockup_released',
        { key: sql`day::text`, params: sql`jsonb_build_object('day', day::text, 'amount', amount::text)`, which: sql`amount > 0` },
        at,
      )},
      ${moved(`yardstick:${day}:unlock`, 'locked_rewards', 'network_rewards')}`,
  );
}

const bytes = (value: Uint8Array) => sql`${Buffer.from(value)}::bytea`;

/**
 * One asset's leaves of the day in a table of their own: each holder's balances pivoted from the
 * accounts, hashed with the holder's nonce as contract/merkle.ts encodes a leaf, placed by the
 * shuffle key (the nonce and the day). Answers how many there are.
 */
async function storeLeaves(db: Db, day: string, asset: string, leaves: RawBuilder<unknown>): Promise<number> {
  const pivot = LEAF_KINDS.map((kind) => sql`coalesce(sum(balance) filter (where kind = ${kind}), 0)::bigint as ${sql.ref(kind)}`);
  const encoded = LEAF_KINDS.map((kind) => sql`int8send(${sql.ref(`p.${kind}`)})`);
  await sql`
    create table ${leaves} as
    select (row_number() over (order by sha256(n.nonce || convert_to(${day}, 'UTF8'))) - 1)::integer as position,
      p.*, sha256(${bytes(Uint8Array.of(LEAF))} || n.nonce || int8send(p.user_id) || ${bytes(assetField(asset))} || ${sql.join(encoded, sql` || `)}) as hash
    from (
      select user_id, ${sql.join(pivot)}, sum(balance)::bigint as sum from accounts
      where asset = ${asset} and user_id <> 0 and kind in (${sql.join(LEAF_KINDS)})
      group by user_id
    ) p
    join proof_nonces n on n.user_id = p.user_id
    where p.sum > 0`.execute(db);
  await sql`alter table ${leaves} add primary key (position)`.execute(db);
  await sql`create index on ${leaves} (user_id)`.execute(db);
  const { rows } = await sql<{ n: number }>`select count(*)::integer as n from ${leaves}`.execute(db);
  return rows[0]?.n ?? 0;
}

/**
 * The root of the Merkle sum tree over `count` leaves, a level per statement: nodes 2i and 2i+1
 * hashed together with their sums, an odd last node carried up as it is.
 */
async function rootOf(db: Db, asset: string, leaves: RawBuilder<unknown>, count: number): Promise<{ hash: Uint8Array; sum: bigint }> {
  if (count === 0) return { hash: new Uint8Array(32), sum: 0n };
  let below = sql`select position as idx, hash, sum from ${leaves}`;
  for (let height = 1, width = count; width > 1; height++, width = Math.ceil(width / 2)) {
    const level = sql.table(`yardstick_level_${asset.toLowerCase()}_${height}`);
    await sql`
      create temp table ${level} on commit drop as
      select idx / 2 as idx,
        case when count(*) = 1 then (array_agg(hash))[1]
          else sha256(${bytes(Uint8Array.of(NODE))} || string_agg(hash || int8send(sum), ''::bytea order by idx)) end as hash,
        sum(sum)::bigint as sum
      from (${below}) b
      group by idx / 2`.execute(db);
    below = sql`select idx, hash, sum from ${level}`;
  }
  const { rows } = await sql<{ hash: Uint8Array; sum: bigint }>`select hash, sum from (${below}) root`.execute(db);
  return rows[0] ?? { hash: new Uint8Array(32), sum: 0n };
}

/** Each asset's leaves and root, from one snapshot of the balances (one transaction). */
function proof(db: Db, day: string, at: Date): Promise<void> {
  return db.transaction().execute(async (trx) => {
    for (const asset of ASSETS) {
      const leaves = sql.table(`yardstick_leaves_${day.replaceAll('-', '')}_${asset.toLowerCase()}`);
      const count = await storeLeaves(trx, day, asset, leaves);
      const root = await rootOf(trx, asset, leaves, count);
      // The ledger's total is the root's: the plain build does not cross-check it.
      await sql`insert into proof_roots (day, asset, root, total, holders, ledger_total, chunk_bits, built_at)
        values (${day}::date, ${asset}, ${bytes(root.hash)}, ${root.sum}, ${count}, ${root.sum}, ${CHUNK_BITS}, ${at})`.execute(trx);
    }
  });
}

export type YardstickDay = { totalS: number; steps: Record<string, number> };

/** One day by hand on `db` (one connection), the clock at the moment it is settled. */
async function settleByHand(db: Db, day: string, at: Date, team: Team, params: EarnParams): Promise<YardstickDay> {
  // The settings the app's steps take for themselves (server/settlement/settle.ts, inStep).
  await sql`set work_mem = '256MB'`.execute(db);
  await sql`set jit = off`.execute(db);
  const steps: Record<string, number> = {};
  const timed = stepTimer(steps);
  const start = performance.now();
  await timed('partition', () => createPartition(db, day));
  const income = await handWrittenDay(db, day, at, yardstickRates(params, day));
  Object.assign(steps, income.steps);
  // Just filled, never analysed: planned on a guess of a handful of lines, the rebates probed
  // an index once for every ancestor of every earner.
  await timed('analyze', () => sql`analyze ${incomePartition(day)}`.execute(db));
  await timed('team', () => teamFigures(db, day, team));
  await timed('rebates', () => rebates(db, day, team));
  await timed('mature', () => maturities(db, day, at));
  await timed('release', () => releases(db, day, at));
  await timed('proof', () => proof(db, day, at));
  return { totalS: (performance.now() - start) / 1000, steps };
}

/** What a day paid and proved, by part, as "rows / total": the figures the app's and the yardstick's days must share. */
export type DayTotals = Record<string, string>;

/** `day`'s income lines by kind, its lock-ups, and its proof's holders and total by asset. */
export async function dayTotals(db: Db, day: string): Promise<DayTotals> {
  const { rows } = await sql<{ part: string; n: bigint; total: bigint }>`
    select 'income ' || kind as part, count(*) as n, coalesce(sum(amount), 0)::bigint as total
    from income where day = ${day}::date group by kind
    union all
    select 'lock-ups', count(*), coalesce(sum(amount), 0)::bigint from lockups where day = ${day}::date
    union all
    select 'proof ' || asset, holders, total from proof_roots where day = ${day}::date`.execute(db);
  return Object.fromEntries(rows.map((r) => [r.part, `${r.n} / ${r.total}`]));
}

/** The parts whose figures differ between `app` and `hand`, each said with both. */
export function totalsDiffer(app: DayTotals, hand: DayTotals): string[] {
  const parts = [...new Set([...Object.keys(app), ...Object.keys(hand)])].sort();
  return parts
    .filter((part) => app[part] !== hand[part])
    .map((part) => `${part}: app ${app[part] ?? 'none'}, hand ${hand[part] ?? 'none'}`);
}

export type Yardstick = {
  days: YardstickDay[];
  totals: DayTotals;
  ledger: boolean;
  /** The members' mean path length: the team figures and the rebates read that many rows per member and per earner. */
  meanPath: number;
};

/**
 * `days` settled by hand for `holders` holders, on a schema of `url`'s database populated as
 * bench/day's (dropped after, kept with BENCH_KEEP_SCHEMA): each day's time and steps, the last
 * day's totals, whether the books balance after them, and the tree's mean path length.
 */
export function yardstickDays(url: string, holders: number, days: string[]): Promise<Yardstick> {
  return onScratchSchema(url, 'day_yardstick', async (db) => {
    const ctx = benchContext(db, `${days[0]}T23:00:00Z`);
    await populate(ctx, holders);
    const settled: YardstickDay[] = [];
    for (const day of days) {
      await vacuumBefore(ctx, day);
      const params = await earnParams(db, ctx.config.earn, day);
      const team = teamOf(await teamRules(db, ctx.config.team, day));
      const at = ctx.clock.now();
      settled.push(await db.connection().execute((conn) => settleByHand(conn, day, at, team, params)));
    }
    const last = days.at(-1) as string;
    const { rows } = await sql<{ mean: number }>`select avg(cardinality(path))::float8 as mean from users`.execute(db);
    return { days: settled, totals: await dayTotals(db, last), ledger: (await checkLedger(db)).ok, meanPath: rows[0]?.mean ?? 0 };
  });
}
