import { sql } from 'kysely';
import { formatUnits, parseAmount } from '../../contract/money.ts';
import type { TeamRules } from '../../contract/teamRules.ts';
import type { Db } from '../db/connect.ts';
import { gatheredByAsk } from '../platform/batch.ts';
import { perOwner } from '../platform/cache.ts';
import { gatheredCalls } from '../platform/readCalls.ts';

const amount = (value: bigint | null | undefined) => formatUnits(value ?? 0n);

/** A user's direct invitees with their branch figures and the rebates earned from each. */
export async function inviteRecords(
  db: Db,
  userId: bigint,
  query: { from?: string; to?: string; cursor?: string; limit?: number },
) {
  const limit = query.limit ?? 20;
  const { rows } = await sql<{
    id: bigint;
    name: string;
    created_at: Date;
    level: number | null;
    effective: boolean | null;
    active: bigint | null;
    team_quantity: bigint | null;
    team_count: number | null;
    rebate: bigint;
  }>`
    select u.id, u.name, coalesce(u.bound_at, u.created_at) as created_at, ts.level, ts.effective, ts.active, ts.team_quantity, ts.team_count,
      coalesce((select t.amount from income_totals t
        where t.user_id = ${userId} and t.kind = 'rebate' and t.branch = u.id), 0)::bigint as rebate
    from users u left join team_stats ts on ts.user_id = u.id
    where u.inviter_id = ${userId} ${query.cursor ? sql`and u.id < ${BigInt(query.cursor)}` : sql``}
      ${query.from ? sql`and u.bound_at >= ${new Date(query.from)}` : sql``}
      ${query.to ? sql`and u.bound_at < ${new Date(query.to)}` : sql``}
    order by u.id desc limit ${limit + 1}`.execute(db);
  const page = rows.slice(0, limit);
  return {
    items: page.map((r) => ({
      userId: String(r.id),
      name: r.name,
      level: r.level ?? 0,
      effective: r.effective ?? false,
      subscription: amount(r.active),
      teamQuantity: amount((r.team_quantity ?? 0n) + (r.active ?? 0n)),
      teamCount: (r.team_count ?? 0) + 1,
      rebate: amount(r.rebate),
      joinedAt: r.created_at.toISOString(),
    })),
    nextCursor: rows.length > limit ? String(page.at(-1)?.id) : null,
  };
}

const units = (text: string) => {
  const parsed = parseAmount(text);
  return parsed.ok ? parsed.value : 0n;
};

export function unlockPercent(team: TeamRules, holding: bigint): string {
  const tier = [...team.unlockTiers]
    .sort((a, b) => (units(b[0]) > units(a[0]) ? 1 : -1))
    .find(([threshold]) => holding >= units(threshold));
  return tier ? tier[1] : '0';
}

const zeroProfitOf = gatheredCalls<{
  network: bigint | null;
  locked: bigint | null;
  holding: bigint;
  total: bigint;
  next_day: string | null;
  next_amount: bigint | null;
}>('zero_profit', ['bigint']);

/**
 * The network income summary (claimable, locked, the next release, the unlock tier): one call of
 * `zero_profit` (zeroProfitFunction.ts), gathered with the summaries asked at once.
 */
export async function zeroProfit(db: Db, team: TeamRules, userId: bigint) {
  const rows = await zeroProfitOf(db, userId);
  const p = rows[0];
  const holding = p?.holding ?? 0n;
  return {
    claimable: amount(p?.network),
    locked: amount(p?.locked),
    pendingUnlock: amount(p?.total),
    nextUnlockDay: p?.next_day ?? null,
    nextUnlockAmount: amount(p?.next_amount),
    held: amount(holding),
    unlockPercent: unlockPercent(team, holding),
    tiers: team.unlockTiers.map(([h, percent]) => ({ holding: amount(units(h)), percent })),
    lockupDays: team.lockupDays,
  };
}

export async function zeroLog(db: Db, userId: bigint, query: { cursor?: string; limit?: number }) {
  const limit = query.limit ?? 20;
  let q = db
    .selectFrom('lockups')
    .select(['day', 'amount', 'unlockable', 'unlock_percent', 'unlock_day', 'released_on'])
    .where('user_id', '=', userId);
  if (query.cursor) q = q.where('day', '<', query.cursor);
  const rows = await q.orderBy('day', 'desc').limit(limit + 1).execute();
  const page = rows.slice(0, limit);
  return {
    items: page.map((r) => ({
      day: String(r.day),
      amount: amount(r.amount),
      unlockable: amount(r.unlockable),
      unlockPercent: r.unlock_percent,
      unlockDay: String(r.unlock_day),
      releasedOn: r.released_on ? String(r.released_on) : null,
    })),
    nextCursor: rows.length > limit ? String(page.at(-1)?.day) : null,
  };
}

type SummaryRow = {
  id: bigint;
  name: string;
  invite_code: string;
  inviter_id: bigint | null;
  inviter_code: string | null;
  level: number | null;
  effective: boolean | null;
  team_quantity: bigint | null;
  team_count: number | null;
  direct_count: number | null;
  held: bigint;
  rewards: bigint;
  network_rewards: bigint;
  today: bigint;
  yesterday: bigint;
  cumulative: bigint;
  static: bigint;
  dynamic: bigint;
  fixed: bigint;
};

/** The My screen's figures of several holders on `today`, a row each (`user_summaries`, summaryFunction.ts). */
async function summariesOf(db: Db, userIds: bigint[], today: string): Promise<Map<bigint, SummaryRow>> {
  const { rows } = await sql<SummaryRow>`select * from user_summaries(${userIds}::bigint[], ${today}::date)`.execute(db);
  return new Map(rows.map((r) => [r.id, r]));
}

/** Holders asked for in the same moment, by their day: one statement for all those of a day. */
const summariesGathered = perOwner((db: Db) =>
  gatheredByAsk(
    (ids: bigint[], today: string) => summariesOf(db, ids, today),
    (today) => today,
    (): SummaryRow | undefined => undefined,
  ),
);

/** Everything the My screen shows about the user: level, team, earnings (none: no such user). */
export async function userSummary(db: Db, userId: bigint, today: string) {
  const r = await summariesGathered(db)(userId, today);
  if (!r) return { user: undefined };
  return {
    user: { id: r.id, name: r.name, invite_code: r.invite_code, inviter_id: r.inviter_id, inviter_code: r.inviter_code },
    level: r.level ?? 0,
    effective: r.effective ?? false,
    held: amount(r.held),
    teamQuantity: amount(r.team_quantity),
    teamCount: r.team_count ?? 0,
    directCount: r.direct_count ?? 0,
    earnings: {
      today: amount(r.today),
      yesterday: amount(r.yesterday),
      cumulative: amount(r.cumulative),
      static: amount(r.static),
      dynamic: amount(r.dynamic),
      claimableReward: amount(r.rewards),
      claimableNetwork: amount(r.network_rewards),
      claimableFixed: amount(r.fixed),
    },
  };
}
