import { sql } from 'kysely';
import type { SessionItem } from '../../contract/sessions.ts';
import type { Db } from '../db/connect.ts';
import { gatheredCalls } from '../platform/readCalls.ts';
import { parseUserAgent } from './device.ts';
import { forgetSessionsEverywhere, parseToken } from './sessions.ts';

/** A session's public id: the first 16 hex digits of its token's hash. */
const ID_LENGTH = 16;
const idOf = (tokenHash: string) => tokenHash.slice(0, ID_LENGTH);

/** The hash of the token a request came with (its session is live: the guard checked). */
export const currentHash = (token: string | undefined): string | undefined =>
  token ? parseToken(token)?.hash : undefined;

type SessionRow = { token_hash: string; created_at: Date; last_seen_at: Date; user_agent: string | null };

const sessionList = gatheredCalls<SessionRow>('session_list', ['bigint', 'timestamptz']);

/**
 * The holder's live sessions (not revoked, not expired), most recently seen first: one call of
 * `session_list` (sessionListFunction.ts), gathered with the lists asked at once.
 */
export async function listSessions(db: Db, userId: bigint, current: string | undefined, now: Date): Promise<SessionItem[]> {
  const rows = await sessionList(db, userId, now.toISOString());
  return rows.map((row) => {
    const device = parseUserAgent(row.user_agent);
    return {
      id: idOf(row.token_hash),
      device: device.label,
      browser: device.browser,
      os: device.os,
      firstSeen: row.created_at.toISOString(),
      lastSeen: row.last_seen_at.toISOString(),
      current: row.token_hash === current,
    };
  });
}

/**
 * Revokes the holder's live sessions: the one with `id`, or every one but `keep`. Only the
 * holder's own rows are looked at (the key starts with the user id), so another holder's id
 * matches nothing. Answers how many were revoked.
 */
export async function revokeSessions(
  db: Db,
  userId: bigint,
  which: { id: string } | { allBut: string },
  now: Date,
): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where(
      'id' in which
        ? sql<boolean>`left(token_hash, ${ID_LENGTH}) = ${which.id}`
        : sql<boolean>`token_hash <> ${which.allBut}`,
    )
    .executeTakeFirst();
  forgetSessionsEverywhere(db, userId);
  return Number(result.numUpdatedRows);
}
