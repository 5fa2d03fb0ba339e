import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import type { JWKS } from 'oidc-provider';
import type { Db } from '../../db/connect.ts';

/**
 * The embedded provider's signing key and cookie keys, made once per database so every
 * server process on it signs and verifies alike, and a restart breaks no sign-in.
 */
export async function providerKeys(db: Db): Promise<{ jwks: JWKS; cookieKeys: string[] }> {
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
  // Stored as JSON by this function: an RSA private key in the provider's JWK form.
  return { jwks: stored.jwks as JWKS, cookieKeys: stored.cookie_keys as string[] };
}
