import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/connect.ts';
import { DAY_MS } from '../platform/clock.ts';

/**
 * Session tokens are "<userId>.<192 random bits>". Only a SHA-256 of the random part is
 * stored; the user id in front keeps every lookup on the user's own rows.
 */
const TOKEN_RE = /^(\d{1,19})\.([A-Za-z0-9_-]{32})$/;

export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export async function createSession(
  db: Db,
  userId: bigint,
  now: Date,
  ttlDays: number,
  userAgent: string | undefined,
): Promise<string> {
  const secret = randomBytes(24).toString('base64url');
  await db
    .insertInto('sessions')
    .values({
      user_id: userId,
      token_hash: hashSecret(secret),
      created_at: now,
      expires_at: new Date(now.getTime() + ttlDays * DAY_MS),
      last_seen_at: now,
      user_agent: userAgent?.slice(0, 300) ?? null,
    })
    .execute();
  return `${userId}.${secret}`;
}

export function parseToken(token: string): { userId: bigint; hash: string } | undefined {
  const match = TOKEN_RE.exec(token);
  if (!match) return undefined;
  return { userId: BigInt(match[1] as string), hash: hashSecret(match[2] as string) };
}

/** How stale "last seen" may get before a request writes it: reads stay reads. */
const LAST_SEEN_RESOLUTION_MS = 5 * 60_000;

/** The user a bearer token signs in, if it is live (not expired, not revoked). */
export async function authenticate(db: Db, token: string, now: Date): Promise<bigint | undefined> {
  const parsed = parseToken(token);
  if (!parsed) return undefined;
  const row = await db
    .selectFrom('sessions')
    .select(['user_id', 'last_seen_at'])
    .where('user_id', '=', parsed.userId)
    .where('token_hash', '=', parsed.hash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  if (now.getTime() - row.last_seen_at.getTime() > LAST_SEEN_RESOLUTION_MS) {
    await db
      .updateTable('sessions')
      .set({ last_seen_at: now })
      .where('user_id', '=', parsed.userId)
      .where('token_hash', '=', parsed.hash)
      .execute();
  }
  return row.user_id;
}

export async function revokeSession(db: Db, token: string, now: Date): Promise<void> {
  const parsed = parseToken(token);
  if (!parsed) return;
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', parsed.userId)
    .where('token_hash', '=', parsed.hash)
    .where('revoked_at', 'is', null)
    .execute();
}
