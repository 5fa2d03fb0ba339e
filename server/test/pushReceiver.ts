import { createDecipheriv, createECDH, createPublicKey, type ECDH, hkdfSync, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A push service of our own for the tests, on 127.0.0.1: it keeps every request it gets and
 * answers 201, or the status (and headers) set for a path (410: the subscription is gone; 302 and
 * a Location: a redirect). A `browser` is what a browser holds for one subscription: a P-256 key
 * pair and a 16-byte secret, its address here, and it decrypts what was sent to it (RFC 8291,
 * aes128gcm, with node:crypto only).
 */
type PushRequest = { path: string; headers: IncomingHttpHeaders; body: Buffer };

export type PushBrowser = {
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** The requests sent to this browser's address. */
  received: () => PushRequest[];
  /** The plaintext of one request's body. */
  decrypt: (body: Buffer) => string;
};

export type PushReceiver = {
  url: string;
  requests: PushRequest[];
  /** Answer this status (with these headers) to requests for this path from now on. */
  answer: (path: string, status: number, headers?: Record<string, string>) => void;
  browser: (path: string) => PushBrowser;
  close: () => Promise<void>;
};

export async function startPushReceiver(): Promise<PushReceiver> {
  const requests: PushRequest[] = [];
  const answers = new Map<string, { status: number; headers: Record<string, string> }>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      requests.push({ path, headers: request.headers, body: Buffer.concat(chunks) });
      const answer = answers.get(path);
      response.writeHead(answer?.status ?? 201, answer?.headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    answer: (path, status, headers = {}) => answers.set(path, { status, headers }),
    browser: (path) => {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      return {
        subscription: {
          endpoint: `${url}${path}`,
          keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
        },
        received: () => requests.filter((r) => r.path === path),
        decrypt: (body) => decryptAes128gcm(body, ecdh, auth),
      };
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

const text = (value: string) => Buffer.from(value, 'latin1');

/**
 * RFC 8291 (Message Encryption for Web Push) on RFC 8188's aes128gcm: the header holds the salt,
 * the record size and the sender's public key; the content key and nonce come from the ECDH
 * secret and the browser's auth secret through HKDF-SHA-256. One record, padded with a 0x02.
 */
function decryptAes128gcm(body: Buffer, ecdh: ECDH, authSecret: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20] ?? 0;
  const senderKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  if (record.length > recordSize) throw new Error('more than one record');
  const secret = ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([text('WebPush: info\0'), ecdh.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', secret, authSecret, keyInfo, 32));
  const key = Buffer.from(hkdfSync('sha256', ikm, salt, text('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, text('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', key, nonce);
  decipher.setAuthTag(record.subarray(-16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, -16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/**
 * The claims of a request's VAPID header (`vapid t=<JWT>, k=<public key>`, RFC 8292) once its
 * ES256 signature checks against that key; throws otherwise.
 */
export function vapidClaims(authorization: string | undefined): { key: string; claims: { aud: string; exp: number; sub: string } } {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? '');
  if (!match?.[1] || !match[2]) throw new Error(`not a VAPID header: ${authorization}`);
  const [header, payload, signature] = match[1].split('.') as [string, string, string];
  const point = Buffer.from(match[2], 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const signed = verify('sha256', Buffer.from(`${header}.${payload}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!signed) throw new Error('VAPID signature does not verify');
  return { key: match[2], claims: JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) };
}
