import { sql } from 'kysely';
import { formatUnits, parseAmount } from '../../contract/money.ts';
import type { TeamRules } from '../../contract/teamRules.ts';
import type { Db } from '../db/connect.ts';
import { AppError } from '../http/errors.ts';
import { queryTime } from '../http/queryTime.ts';
import { gatheredByAsk } from '../platform/batch.ts';
import { perOwner } from '../platform/cache.ts';
import { isCalendarDay } from '../platform/clock.ts';
import { gatheredCalls, idCursor } from '../platform/readCalls.ts';

const amount = (value: bigint | null | undefined) => formatUnits(value ?? 0n);

type InviteRecordRow = {
  id: bigint;
  name: string;
  created_at: Date;
  level: number | null;
  effective: boolean | null;
  active: bigint | null;
  team_quantity: bigint | null;
  team_count: number | null;
  rebate: bigint;
};

const inviteRecordsOf = gatheredCalls<InviteRecordRow>('invite_records', ['bigint', 'timestamptz', 'timestamptz', 'bigint', 'int']);

/**
 * A user's direct invitees with their branch figures and the rebates earned from each: one call
 * of `invite_records` (listFunctions.ts), gathered with the pages asked at once. A cursor past
 * PostgreSQL's bigint reads from the newest (`idCursor`).
 */
export async function inviteRecords(
  db: Db,
  userId: bigint,
  query: { from?: string; to?: string; cursor?: string; limit?: number },
) {
  const limit = query.limit ?? 20;
  const rows = await inviteRecordsOf(
    db,
    userId,
    queryTime(query.from),
    queryTime(query.to),
    query.cursor ? idCursor(query.cursor) : null,
    limit + 1,
  );
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

const zeroLogOf = gatheredCalls<{
  day: string;
  amount: bigint;
  unlockable: bigint;
  unlock_percent: string;
  unlock_day: string;
  released_on: string | null;
}>('zero_log', ['bigint', 'date', 'int']);

/**
 * The holder's lock-ups, newest day first, before the cursor's day: one call of `zero_log`
 * (listFunctions.ts), gathered with the pages asked at once. A cursor PostgreSQL would not read
 * as a day (year 0, which the `date` format lets through) is refused before the call (PARAM), as
 * PostgreSQL refused it when it was asked alone: a call refused would fail the calls of its turn.
 */
export async function zeroLog(db: Db, userId: bigint, query: { cursor?: string; limit?: number }) {
  const limit = query.limit ?? 20;
  const cursor = query.cursor || null;
  if (cursor !== null && (!isCalendarDay(cursor) || cursor.startsWith('0000-'))) throw new AppError('PARAM', `not a day: ${cursor}`);
  const rows = await zeroLogOf(db, userId, cursor, limit + 1);
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
