import { sql } from 'kysely';
import { readFunction } from '../db/readFunction.ts';
import { ORDERS, productsIn } from '../db/statuses.ts';

/**
 * `user_summaries(users, today)`: the My screen's figures of several holders on `today`, a row
 * each, in key lookups per holder: the team figures from the day's team_stats, income to date
 * from the holders' totals (income_totals), today's and yesterday's from those two days'
 * partitions of `income`.
 *
 * A function so that each connection plans it once (`readFunction`): sent as a prepared
 * statement, PostgreSQL planned it at every call (the holders come as an array, whose length only
 * a plan made for it knows), and planning cost more than running it. The plan leaves out the
 * partitions of other days when it starts, from `today`, as a plan made for the day did.
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const USER_SUMMARIES = readFunction(
  sql`user_summaries(p_users bigint[], p_today date)
    returns table (
      id bigint, name text, invite_code text, inviter_id bigint, inviter_code text,
      level smallint, effective boolean, team_quantity bigint, team_count integer, direct_count integer,
      held bigint, fixed bigint, rewards bigint, network_rewards bigint,
      today bigint, yesterday bigint, cumulative bigint, static bigint, dynamic bigint
    )`,
  sql`
    select u.id, u.name, u.invite_code, u.inviter_id, i.invite_code,
      ts.level, ts.effective, ts.team_quantity, ts.team_count, ts.direct_count,
      o.held, o.fixed, a.rewards, a.network_rewards, d.today, d.yesterday, t.cumulative, t.static, t.dynamic
    from users u
    left join users i on i.id = u.inviter_id
    left join team_stats ts on ts.user_id = u.id
    cross join lateral (
      select coalesce(sum(r.principal) filter (where r.status in ${ORDERS.held}), 0)::bigint as held,
        coalesce(sum(r.principal + r.income) filter (where r.product in ${productsIn('fixed')} and r.status = 'redeemable'), 0)::bigint as fixed
      from orders r where r.user_id = u.id
    ) o
    cross join lateral (
      select coalesce(sum(c.balance) filter (where c.kind = 'rewards'), 0)::bigint as rewards,
        coalesce(sum(c.balance) filter (where c.kind = 'network_rewards'), 0)::bigint as network_rewards
      from accounts c where c.user_id = u.id and c.asset = 'AIC'
    ) a
    cross join lateral (
      select coalesce(sum(l.amount) filter (where l.day = p_today), 0)::bigint as today,
        coalesce(sum(l.amount) filter (where l.day = p_today - 1), 0)::bigint as yesterday
      from income l where l.user_id = u.id and l.day in (p_today, p_today - 1)
    ) d
    cross join lateral (
      select coalesce(sum(s.amount), 0)::bigint as cumulative,
        coalesce(sum(s.amount) filter (where s.kind = 'static'), 0)::bigint as static,
        coalesce(sum(s.amount) filter (where s.kind = 'rebate'), 0)::bigint as dynamic
      from income_totals s where s.user_id = u.id
    ) t
    where u.id = any(p_users)`,
);
