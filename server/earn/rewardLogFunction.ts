import { sql } from 'kysely';
import { readFunction } from '../db/readFunction.ts';
import { lineInputs } from '../income/inputs.ts';

/**
 * `reward_log(user, kind, cursor day, cursor order, cursor kind, limit)`: the holder's income
 * lines, newest first (day, order, kind), of one kind or all, after the cursor when it has one,
 * at most `limit`, each with its inputs (income/inputs.ts).
 *
 * A function so that each connection plans it once (`readFunction`): sent as a prepared
 * statement, PostgreSQL planned it again at about half the calls. One plan serves every holder
 * and cursor: it reads the partitions of `income` newest first and stops at the limit, so a
 * plan for the cursor's day would prune nothing the limit does not already skip.
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const REWARD_LOG = readFunction(
  sql`reward_log(p_user bigint, p_kind text, p_day date, p_order bigint, p_line_kind text, p_limit int)
    returns table (order_id bigint, day text, kind text, amount bigint, inputs jsonb)`,
  sql`select line.order_id, line.day::text, line.kind, line.amount, ${lineInputs('line')}
    from income line
    where line.user_id = p_user and (p_kind is null or line.kind = p_kind)
      and (p_day is null or (line.day, line.order_id, line.kind) < (p_day, p_order, p_line_kind))
    order by line.day desc, line.order_id desc, line.kind desc
    limit p_limit`,
);

/**
 * `daily_income(user, from, to)`: the holder's income per day from `from` to `to`, every day
 * present (zero where nothing was earned), oldest first. A function for the same reasons as the
 * log above; the charts asked at once are one statement (earn/logs.ts).
 */
export const DAILY_INCOME = readFunction(
  sql`daily_income(p_user bigint, p_from date, p_to date) returns table (day text, amount bigint)`,
  sql`select d::date::text, coalesce(sum(i.amount), 0)::bigint
    from generate_series(p_from, p_to, interval '1 day') d
    left join income i on i.user_id = p_user and i.day = d::date
    group by d order by d`,
);
