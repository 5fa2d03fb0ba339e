import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';

/** The holder's tokens at the exchange, as sign-in got them (auth/oauth.ts's ExchangeGrant). */
export type Grant = { subject: string; accessToken: string; refreshToken: string | null; expiresAt: Date };

/** AES-256-GCM under EXCHANGE_TOKEN_KEY: `v1.<iv>.<tag>.<ciphertext>`, base64url each. */
function seal(key: Buffer, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** The text `seal` sealed; throws when the key is another or the text was changed. */
function unseal(key: Buffer, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed token');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

type Executor = Db | Transaction<Database>;

/** Keeps a holder's latest tokens, sealed: a sign-in or a refresh replaces what was there. */
export async function saveGrant(db: Executor, key: Buffer, userId: bigint, grant: Grant, now: Date): Promise<void> {
  const row = {
    user_id: userId,
    subject: grant.subject,
    access_token: seal(key, grant.accessToken),
    refresh_token: grant.refreshToken === null ? null : seal(key, grant.refreshToken),
    access_expires_at: grant.expiresAt,
    updated_at: now,
  };
  await db
    .insertInto('exchange_grants')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
    .execute();
}

async function loadGrant(db: Executor, key: Buffer, userId: bigint): Promise<Grant | undefined> {
  const row = await db.selectFrom('exchange_grants').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (!row) return undefined;
  try {
    return {
      subject: row.subject,
      accessToken: unseal(key, row.access_token),
      refreshToken: row.refresh_token === null ? null : unseal(key, row.refresh_token),
      expiresAt: row.access_expires_at,
    };
  } catch {
    // Sealed under another key (EXCHANGE_TOKEN_KEY changed): as good as no consent; a sign-in renews it.
    return undefined;
  }
}

async function forgetGrant(db: Executor, userId: bigint): Promise<void> {
  await db.deleteFrom('exchange_grants').where('user_id', '=', userId).execute();
}

/** Renews a grant at the exchange: the new one, or 'revoked' when the holder withdrew it. */
export type Refresh = (grant: Grant) => Promise<Grant | 'revoked'>;

/**
 * A holder's access token, refreshed first when it has expired (or `stale`: the exchange just
 * refused it). Undefined when there is no consent: never given, or withdrawn at the exchange.
 */
export async function accessTokenOf(
  deps: { db: Db; key: Buffer; refresh: Refresh },
  userId: bigint,
  stale = false,
): Promise<string | undefined> {
  const grant = await loadGrant(deps.db, deps.key, userId);
  if (!grant) return undefined;
  if (!stale && grant.expiresAt.getTime() > Date.now() + 10_000) return grant.accessToken;
  const renewed = await deps.refresh(grant);
  if (renewed === 'revoked') {
    await forgetGrant(deps.db, userId);
    return undefined;
  }
  await saveGrant(deps.db, deps.key, userId, renewed, new Date());
  return renewed.accessToken;
}
