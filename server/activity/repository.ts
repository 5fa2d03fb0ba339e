import type { Db } from '../db/connect.ts';
import { gatheredCalls } from '../platform/readCalls.ts';

export type WindowPerformance = {
  ownSubscribed: bigint;
  directInvites: number;
  directEffective: number;
  newMembers: number;
  newEffective: number;
  quantityAdded: bigint;
  /** The settled day the team's figures are of (null before the first). */
  teamAsOf: string | null;
};

const performanceOf = gatheredCalls<{
  own_subscribed: bigint;
  direct_invites: bigint | null;
  direct_effective: bigint | null;
  new_members: bigint | null;
  new_effective: bigint | null;
  quantity_added: bigint | null;
  team_as_of: string | null;
}>('window_performance', ['bigint', 'timestamptz', 'timestamptz']);

/**
 * What the holder and their team did inside [from, to): the holder's own subscriptions still held,
 * now; and, as of the last settled day, the direct invitees and downline members who bound in it,
 * how many of them are effective, and the downline's subscriptions in it still held. The team's
 * figures are rolled up as the day settles (team_roll_up, team/functions.ts) and read here as one
 * row of team_stats: walking the downline per request grew with the team, to a million members. One call of
 * `window_performance` (windowFunction.ts), gathered with the pages asked at once.
 */
export async function windowPerformance(db: Db, userId: bigint, from: Date, to: Date): Promise<WindowPerformance> {
  const rows = await performanceOf(db, userId, from.toISOString(), to.toISOString());
  const r = rows[0];
  return {
    ownSubscribed: r?.own_subscribed ?? 0n,
    directInvites: Number(r?.direct_invites ?? 0),
    directEffective: Number(r?.direct_effective ?? 0),
    newMembers: Number(r?.new_members ?? 0),
    newEffective: Number(r?.new_effective ?? 0),
    quantityAdded: r?.quantity_added ?? 0n,
    teamAsOf: r?.team_as_of ?? null,
  };
}
