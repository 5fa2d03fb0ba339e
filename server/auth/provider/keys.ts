import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Db } from '../../db/connect.ts';

/**
 * The embedded provider's signing key and cookie keys, made once per database so every
 * server process on it signs and verifies alike, and a restart breaks no sign-in.
 */
export async function providerKeys(db: Db): Promise<{ jwks: { keys: JWK[] }; cookieKeys: string[] }> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), use: 'sig', alg: 'RS256', kid: randomBytes(8).toString('hex') };
  const candidates = {
    jwks: { keys: [jwk] },
    cookie_keys: [randomBytes(32).toString('base64url'), randomBytes(32).toString('base64url')],
  };
  for (const [name, value] of Object.entries(candidates)) {
    await db
      .insertInto('embedded_provider')
      .values({ name, value: JSON.stringify(value) })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }
  const rows = await db.selectFrom('embedded_provider').select(['name', 'value']).execute();
  const stored = Object.fromEntries(rows.map((r) => [r.name, r.value]));
  return { jwks: stored.jwks as { keys: JWK[] }, cookieKeys: stored.cookie_keys as string[] };
}
