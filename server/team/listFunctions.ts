import { sql } from 'kysely';
import { readFunction } from '../db/readFunction.ts';

/**
 * `inviter_by_code(code)`: the holder whose invitation code `code` is (normalized), its id and
 * display name, no row if none has it: the look-up of GET /api/user/inviter (team/inviter.ts,
 * `showInviter`, which judges the code around it), gathered for the holders asking at once
 * (platform/readCalls.ts). The bind looks the code up inside its own transaction instead.
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const INVITER_BY_CODE = readFunction(
  sql`inviter_by_code(p_code text) returns table (id bigint, name text)`,
  sql`select u.id, u.name from users u where u.invite_code = p_code`,
);

/**
 * `invite_records(user, from, to, before, limit)`: a holder's direct invitees, newest id first,
 * bound in [from, to) when given, with ids below `before` when given: each with its branch's
 * figures (team_stats, none before the first settlement) and the rebates it has paid the holder
 * (`income_totals`). The invite records' page (team/repository.ts, `inviteRecords`), gathered
 * for the holders asking at once (platform/readCalls.ts).
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const INVITE_RECORDS = readFunction(
  sql`invite_records(p_user bigint, p_from timestamptz, p_to timestamptz, p_before bigint, p_limit int)
    returns table (id bigint, name text, created_at timestamptz, level smallint, effective boolean, active bigint,
      team_quantity bigint, team_count integer, rebate bigint)`,
  sql`
    select u.id, u.name, coalesce(u.bound_at, u.created_at), ts.level, ts.effective, ts.active, ts.team_quantity, ts.team_count,
      coalesce((select t.amount from income_totals t
        where t.user_id = p_user and t.kind = 'rebate' and t.branch = u.id), 0)::bigint
    from users u left join team_stats ts on ts.user_id = u.id
    where u.inviter_id = p_user
      and (p_before is null or u.id < p_before)
      and (p_from is null or u.bound_at >= p_from)
      and (p_to is null or u.bound_at < p_to)
    order by u.id desc
    limit p_limit`,
);

/**
 * `zero_log(user, before, limit)`: a holder's lock-ups of network income, newest day first, of
 * days before `before` when given (no day is 'infinity'): the network income log's page
 * (team/repository.ts, `zeroLog`), gathered for the holders asking at once (platform/readCalls.ts).
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const ZERO_LOG = readFunction(
  sql`zero_log(p_user bigint, p_before date, p_limit int)
    returns table (day date, amount bigint, unlockable bigint, unlock_percent text, unlock_day date, released_on date)`,
  sql`
    select l.day, l.amount, l.unlockable, l.unlock_percent, l.unlock_day, l.released_on
    from lockups l
    where l.user_id = p_user and l.day < coalesce(p_before, 'infinity'::date)
    order by l.day desc
    limit p_limit`,
);
