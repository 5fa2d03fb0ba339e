import { sql } from 'kysely';
import { readFunction } from '../db/readFunction.ts';

/**
 * `holder_figures(user, day)`: the holder's own part of the Earn centre (productInfo.ts,
 * `holderFigures`): the quota used on `day`, whether an inviter is bound, the AIC wallet and the
 * claimable rewards. One row, its figures null where the holder has no such row. Gathered for the
 * holders asking at once (platform/readCalls.ts).
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const HOLDER_FIGURES = readFunction(
  sql`holder_figures(p_user bigint, p_day date) returns table (used bigint, inviter_bound boolean, wallet bigint, rewards bigint)`,
  sql`
    select
      (select q.used from daily_quota q where q.user_id = p_user and q.day = p_day),
      (select u.inviter_id is not null from users u where u.id = p_user),
      (select a.balance from accounts a where a.user_id = p_user and a.asset = 'AIC' and a.kind = 'wallet'),
      (select a.balance from accounts a where a.user_id = p_user and a.asset = 'AIC' and a.kind = 'rewards')`,
);
