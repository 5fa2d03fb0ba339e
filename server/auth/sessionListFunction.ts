import { sql } from 'kysely';
import { readFunction } from '../db/readFunction.ts';

/**
 * `session_list(user, now)`: the holder's live sessions (not revoked, not expired at `now`), most
 * recently seen first: the sessions screen's read (sessionList.ts, `listSessions`), gathered for
 * the holders asking at once (platform/readCalls.ts).
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const SESSION_LIST = readFunction(
  sql`session_list(p_user bigint, p_now timestamptz)
    returns table (token_hash text, created_at timestamptz, last_seen_at timestamptz, user_agent text)`,
  sql`
    select s.token_hash, s.created_at, s.last_seen_at, s.user_agent
    from sessions s
    where s.user_id = p_user and s.revoked_at is null and s.expires_at > p_now
    order by s.last_seen_at desc, s.created_at desc`,
);
