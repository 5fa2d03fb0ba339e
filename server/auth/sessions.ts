import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/connect.ts';
import { revocations } from '../platform/broadcast.ts';
import { perOwner } from '../platform/cache.ts';
import { DAY_MS } from '../platform/clock.ts';
import { notify } from '../notify/notices.ts';
import { parseUserAgent } from './device.ts';

/**
 * Session tokens are "<userId>.<192 random bits>". Only a SHA-256 of the random part is
 * stored; the user id in front keeps every lookup on the user's own rows.
 */
const TOKEN_RE = /^(\d{1,19})\.([A-Za-z0-9_-]{32})$/;

const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/**
 * Sessions live on the wall clock, not the app's (ctx.clock): an operator moves the demo clock
 * through days of money, and that must not sign every holder out.
 */
export const sessionNow = (): Date => new Date();

/** A new session of `ttlDays`, from now on the wall clock (`sessionNow`). */
export async function createSession(db: Db, userId: bigint, ttlDays: number, userAgent: string | undefined): Promise<string> {
  const now = sessionNow();
  const secret = randomBytes(24).toString('base64url');
  const tokenHash = hashSecret(secret);
  const agent = userAgent?.slice(0, 300) ?? null;
  await db.transaction().execute(async (trx) => {
    const earlier = await trx.selectFrom('sessions').select('user_agent').where('user_id', '=', userId).execute();
    await trx
      .insertInto('sessions')
      .values({
        user_id: userId,
        token_hash: tokenHash,
        created_at: now,
        expires_at: new Date(now.getTime() + ttlDays * DAY_MS),
        last_seen_at: now,
        user_agent: agent,
      })
      .execute();
    if (isNewDevice(earlier.map((row) => row.user_agent), agent)) {
      const { browser, os } = parseUserAgent(agent);
      // Keyed by the session's id as the sessions list shows it, where the holder can sign it out.
      const key = tokenHash.slice(0, 16);
      await notify(trx, { userId, kind: 'new_device', key, params: { browser: browser ?? '', os: os ?? '' }, at: now });
    }
  });
  return `${userId}.${secret}`;
}

/**
 * A sign-in on a browser and system none of the holder's earlier sessions had (read from the
 * user agent: a browser updating itself is the same device). The first sign-in is no news.
 */
function isNewDevice(earlier: (string | null)[], agent: string | null): boolean {
  if (earlier.length === 0) return false;
  const name = (ua: string | null) => {
    const { browser, os } = parseUserAgent(ua);
    return `${browser}|${os}`;
  };
  const seen = new Set(earlier.map(name));
  return !seen.has(name(agent));
}

/** Whether a string has the shape of a session token (nothing is looked up). */
export const isTokenFormat = (token: string): boolean => TOKEN_RE.test(token);

export function parseToken(token: string): { userId: bigint; hash: string } | undefined {
  const match = TOKEN_RE.exec(token);
  if (!match) return undefined;
  return { userId: BigInt(match[1] as string), hash: hashSecret(match[2] as string) };
}

/** How stale "last seen" may get before a request writes it: reads stay reads. */
const LAST_SEEN_RESOLUTION_MS = 5 * 60_000;

/** A copy kept by this process is never older than this, so a revocation reaches every process. */
const SESSION_CACHE_MAX_MS = 1_000;
/** Sessions kept per process at most; past it the oldest copies go first. */
const SESSION_CACHE_SIZE = 100_000;

type Live = { userId: bigint; tokenHash: string; expiresAt: number };
const copiesOf = perOwner((_db: Db) => new Map<string, { live: Live; at: number }>());

/** Forgets this process's copies of a holder's sessions (a revocation here or on another process). */
export function forgetSessions(db: Db, userId: bigint): void {
  const map = copiesOf(db);
  for (const [key, copy] of map) if (copy.live.userId === userId) map.delete(key);
}

/** After a revocation: this process forgets the holder's copies now, and tells every other process (REDIS_URL). */
export function forgetSessionsEverywhere(db: Db, userId: bigint): void {
  forgetSessions(db, userId);
  revocations(db).current.publish(String(userId));
}

/**
 * The session a bearer token signs in, if it is live (not expired, not revoked): its user and
 * its token's hash (which names the session: the rate limits count by it). A live session is
 * kept for `cacheMs` (at most 1 s) in this process: every request of a holder no longer costs a
 * lookup, and a session revoked on any process is refused by all of them within a second
 * (revocations made here are forgotten at once).
 */
export async function authenticate(
  db: Db,
  token: string,
  now: Date,
  cacheMs = 0,
): Promise<{ userId: bigint; tokenHash: string } | undefined> {
  const parsed = parseToken(token);
  if (!parsed) return undefined;
  const key = `${parsed.userId}.${parsed.hash}`;
  const ttl = Math.min(cacheMs, SESSION_CACHE_MAX_MS);
  const map = copiesOf(db);
  const copy = map.get(key);
  if (copy && Date.now() - copy.at < ttl && copy.live.expiresAt > now.getTime()) {
    return { userId: copy.live.userId, tokenHash: copy.live.tokenHash };
  }
  const row = await db
    .selectFrom('sessions')
    .select(['user_id', 'last_seen_at', 'expires_at'])
    .where('user_id', '=', parsed.userId)
    .where('token_hash', '=', parsed.hash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) {
    map.delete(key);
    return undefined;
  }
  if (now.getTime() - row.last_seen_at.getTime() > LAST_SEEN_RESOLUTION_MS) {
    await db
      .updateTable('sessions')
      .set({ last_seen_at: now })
      .where('user_id', '=', parsed.userId)
      .where('token_hash', '=', parsed.hash)
      .execute();
  }
  const live = { userId: row.user_id, tokenHash: parsed.hash, expiresAt: row.expires_at.getTime() };
  if (ttl > 0) {
    map.delete(key);
    if (map.size >= SESSION_CACHE_SIZE) map.delete(map.keys().next().value as string);
    map.set(key, { live, at: Date.now() });
  }
  return { userId: live.userId, tokenHash: live.tokenHash };
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
  forgetSessionsEverywhere(db, parsed.userId);
}
