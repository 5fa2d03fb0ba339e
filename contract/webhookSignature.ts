/**
 * The signature of an exchange webhook: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`
 * with the shared webhook secret (contract/exchange.ts). Web Crypto, so both sides share it.
 */
async function hmacHex(secret: string, text: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(text)));
  return [...mac].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export async function signWebhook(secret: string, body: string, atSeconds: number): Promise<string> {
  return `t=${atSeconds},v1=${await hmacHex(secret, `${atSeconds}.${body}`)}`;
}

/** Equal strings in time that does not depend on where they first differ. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Whether `header` signs `body` with `secret` at a time within `toleranceS` of `nowSeconds`. */
export async function verifyWebhook(
  secret: string,
  body: string,
  header: string | undefined,
  nowSeconds: number,
  toleranceS: number,
): Promise<boolean> {
  const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.split('=', 2) as [string, string]));
  const at = Number(parts.t);
  if (!Number.isSafeInteger(at) || Math.abs(nowSeconds - at) > toleranceS || !parts.v1) return false;
  return sameText(parts.v1, await hmacHex(secret, `${at}.${body}`));
}
