import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { ORDERS } from '../db/statuses.ts';


export type WindowPerformance = {
  ownSubscribed: bigint;
  directInvites: number;
  directEffective: number;
  newMembers: number;
  newEffective: number;
  quantityAdded: bigint;
};

/**
 * What the holder and their team did inside [from, to): the holder's subscriptions still held,
 * direct invitees who bound in it, downline members who joined in it (effective as of the last
 * settled day's team figures), and the downline's subscriptions in it still held.
 */
export async function windowPerformance(db: Db, userId: bigint, from: Date, to: Date): Promise<WindowPerformance> {
  const { rows } = await sql<{
    own_subscribed: bigint;
    direct_invites: number;
    direct_effective: number;
    new_members: number;
    new_effective: number;
    quantity_added: bigint;
  }>`
    with downline as (
      select u.id, u.inviter_id, u.bound_at from users u where u.path @> array[${userId}]::bigint[]
    ),
    joined as (
      select d.inviter_id = ${userId} as direct, coalesce(ts.effective, false) as effective
      from downline d left join team_stats ts on ts.user_id = d.id
      where d.bound_at >= ${from} and d.bound_at < ${to}
    )
    select
      (select coalesce(sum(principal), 0) from orders
        where user_id = ${userId} and status in ${ORDERS.held} and created_at >= ${from} and created_at < ${to})::bigint as own_subscribed,
      (select count(*) filter (where direct) from joined)::int as direct_invites,
      (select count(*) filter (where direct and effective) from joined)::int as direct_effective,
      (select count(*) from joined)::int as new_members,
      (select count(*) filter (where effective) from joined)::int as new_effective,
      (select coalesce(sum(o.principal), 0) from orders o join downline d on d.id = o.user_id
        where o.status in ${ORDERS.held} and o.created_at >= ${from} and o.created_at < ${to})::bigint as quantity_added`.execute(db);
  const r = rows[0];
  return {
    ownSubscribed: r?.own_subscribed ?? 0n,
    directInvites: Number(r?.direct_invites ?? 0),
    directEffective: Number(r?.direct_effective ?? 0),
    newMembers: Number(r?.new_members ?? 0),
    newEffective: Number(r?.new_effective ?? 0),
    quantityAdded: r?.quantity_added ?? 0n,
  };
}
