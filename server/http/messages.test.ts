import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, type ErrorName } from '../../contract/errors.ts';
import { LANGUAGES, type LanguageKey } from '../../contract/languages.ts';
import { PATHS } from '../../contract/paths.ts';
import { TcpProxy } from '../reliability/proxy.ts';
import { DATABASES, startTestApp, TEST_DATABASE_URL, type TestApp } from '../test/harness.ts';
import { bearer, newKey, REDIRECT_URI, signIn } from '../test/signIn.ts';

/**
 * Spec section 8, message by message: each a-code's condition is provoked once through the
 * real API, and the same request is sent once per app language (X-Lang). Every answer must
 * carry the envelope code of the catalogue and the locale file's text for that language:
 * present, and not left in English outside en and Malaysian. a0 and a7 have no server answer:
 * the web client decides them (web/src/api/transport.test.ts); their texts are checked here.
 */
type Tree = { [key: string]: string | Tree };
const localesDir = fileURLToPath(new URL('../../web/src/i18n/locales/', import.meta.url));
const locales = new Map<string, Tree>();
function textOf(file: string, key: string): string | undefined {
  if (!locales.has(file)) locales.set(file, JSON.parse(readFileSync(`${localesDir}${file}.json`, 'utf8')) as Tree);
  let node: string | Tree | undefined = locales.get(file);
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** The text each app language must show for `key`: there, and translated where it should be. */
function expectedText(language: (typeof LANGUAGES)[number], key: string): string {
  const text = textOf(language.messages, key);
  expect(text?.trim(), `${key} in ${language.key}`).toBeTruthy();
  if (language.messages !== 'en') expect(text, `${key} left in English in ${language.key}`).not.toBe(textOf('en', key));
  return text as string;
}

type Reply = { status: number; body: { code: number; msg: string; data: unknown } };
type Send = (lang: LanguageKey) => Promise<Reply>;

/** Sends the provoking request once per language; each answer has the code and the text. */
async function expectMessage(name: ErrorName, key: string, send: Send) {
  const entry = ERRORS[name];
  expect(entry.message).toBe(key);
  const replies = await Promise.all(LANGUAGES.map((language) => send(language.key)));
  LANGUAGES.forEach((language, i) => {
    const reply = replies[i] as Reply;
    expect({ status: reply.status, code: reply.body.code }, language.key).toEqual({ status: entry.http, code: entry.code });
    expect(reply.body.msg, `${key} (${name}) in ${language.key}`).toBe(expectedText(language, key));
  });
}

/** A request written on the socket as it stands: for what app.inject cannot send. */
function rawRequest(base: string, text: string): Promise<Reply> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let data = Buffer.alloc(0);
    const done = () => {
      const raw = data.toString('utf8');
      const split = raw.indexOf('\r\n\r\n');
      const status = Number(raw.slice(9, 12));
      const length = Number(/content-length: *(\d+)/i.exec(raw.slice(0, split))?.[1] ?? -1);
      const body = data.subarray(Buffer.byteLength(raw.slice(0, split)) + 4);
      if (split < 0 || body.length < length) return false;
      socket.destroy();
      resolve({ status, body: JSON.parse(body.subarray(0, length).toString('utf8')) });
      return true;
    };
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      done();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => done() || reject(new Error(`closed without an answer: ${data.toString()}`)));
  });
}

/** The exchange's sign-in server as the tests need it: answering badly, or not at all. */
function upstreamStub() {
  let mode: 'bad' | 'hang' = 'bad';
  const server: Server = createServer((_request, response) => {
    if (mode === 'bad') response.writeHead(500, { 'content-type': 'text/html' }).end('<h1>down</h1>');
  });
  return {
    server,
    set: (next: typeof mode) => {
      mode = next;
    },
    start: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
    stop: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.each(DATABASES)('spec section 8 messages in ten languages on %s', (kind) => {
  let t: TestApp;
  /** An app whose exchange sign-in server is the stub (502, 504), and on PostgreSQL reaches it through a proxy (503). */
  let u: TestApp;
  const database = new URL(TEST_DATABASE_URL);
  const proxy = new TcpProxy({ host: database.hostname, port: Number(database.port || 5432) });
  let base = '';
  const stub = upstreamStub();
  const tokens: Record<string, string> = {};
  let rootCode = '';

  const reply = (response: { statusCode: number; json: () => unknown }): Reply => ({
    status: response.statusCode,
    body: response.json() as Reply['body'],
  });
  const get = (app: TestApp, url: string, lang: LanguageKey, token?: string, query?: Record<string, string>) =>
    app.app
      .inject({ method: 'GET', url, query: query ?? {}, headers: { 'x-lang': lang, ...(token ? bearer(token) : {}) } })
      .then(reply);
  const post = (who: string, url: string, lang: LanguageKey, body: object | string) =>
    t.app
      .inject({
        method: 'POST',
        url,
        headers: { ...bearer(tokens[who] as string), 'idempotency-key': newKey(), 'content-type': 'application/json', 'x-lang': lang },
        payload: typeof body === 'string' ? body : JSON.stringify(body),
      })
      .then(reply);

  beforeAll(async () => {
    t = await startTestApp(kind, { config: { requestTimeoutMs: 300 } });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    for (const name of ['root', 'alice', 'bob', 'carol']) tokens[name] = (await signIn(t.app, { name: `${name} of the messages` })).token;
    rootCode = ((await get(t, PATHS.userInfo, 'en', tokens.root)).body.data as { inviteCode: string }).inviteCode;
    // alice and carol are bound to root; bob is not. carol uses up today's quota.
    for (const who of ['alice', 'carol']) expect((await post(who, PATHS.bindInviter, 'en', { inviteCode: rootCode })).body.code).toBe(0);
    expect((await post('carol', PATHS.transferIn, 'en', { asset: 'AIC', amount: '10000' })).body.code).toBe(0);
    expect((await post('carol', PATHS.productBuy, 'en', { product: 'current', amount: '10000' })).body.code).toBe(0);
    const viaProxy = new URL(TEST_DATABASE_URL);
    if (kind === 'postgres') viaProxy.host = `127.0.0.1:${(await proxy.start()).port}`;
    u = await startTestApp(kind, {
      seed: false,
      config: { oidcIssuer: await stub.start(), upstreamTimeoutMs: 200 },
      ...(kind === 'postgres' ? { databaseUrl: viaProxy.href } : {}),
    });
  });
  afterAll(async () => {
    if (kind === 'postgres') await proxy.restore();
    await u?.close();
    await t?.close();
    await stub.stop();
    if (kind === 'postgres') await proxy.close();
  });

  it('a0 and a7 (no answer: the web client decides) have their text in every language', () => {
    for (const key of ['a0', 'a7']) for (const language of LANGUAGES) expectedText(language, key);
  });

  it('a1 (100): a parameter that fails its schema', async () => {
    await expectMessage('PARAM', 'a1', (lang) => post('alice', PATHS.productBuy, lang, { product: 'weekly', amount: '5' }));
  });

  it('a2 (101): an invitation code whose binding would close a cycle (own, unknown and malformed codes have their own)', async () => {
    const aliceCode = ((await get(t, PATHS.userInfo, 'en', tokens.alice)).body.data as { inviteCode: string }).inviteCode;
    // alice is bound to root: root binding alice would close a cycle.
    await expectMessage('INVITE_CODE', 'a2', (lang) => post('root', PATHS.bindInviter, lang, { inviteCode: aliceCode }));
  });

  it('a3 (102): a purchase when nothing is left of today’s quota', async () => {
    await expectMessage('QUOTA', 'a3', (lang) => post('carol', PATHS.productBuy, lang, { product: 'current', amount: '1' }));
  });

  it('a4 (103): a purchase the wallet cannot pay', async () => {
    await expectMessage('BALANCE', 'a4', (lang) => post('alice', PATHS.productBuy, lang, { product: 'fixed30', amount: '5' }));
  });

  it('a5 (104): binding an inviter a second time', async () => {
    await expectMessage('INVITE_BOUND', 'a5', (lang) => post('alice', PATHS.bindInviter, lang, { inviteCode: rootCode }));
  });

  it('a6 (105): redeeming an order that is not there', async () => {
    await expectMessage('REDEEM_NONE', 'a6', (lang) => post('alice', PATHS.redeemCurrent, lang, { orderId: '999999' }));
  });

  it('a8 (400): a body that is not JSON', async () => {
    await expectMessage('BAD_REQUEST', 'a8', (lang) => post('alice', PATHS.productBuy, lang, '{"product":'));
  });

  it('a9 (300): a purchase above what is left of today’s quota', async () => {
    await expectMessage('DAILY_QUOTA', 'a9', (lang) => post('alice', PATHS.productBuy, lang, { product: 'current', amount: '10000.00000001' }));
  });

  it('a10 (500): an unexpected failure inside the server (a table gone)', async () => {
    await sql`alter table daily_quota rename to daily_quota_gone`.execute(t.ctx.db);
    try {
      await expectMessage('INTERNAL', 'a10', (lang) => get(t, PATHS.productInfo, lang, tokens.alice));
    } finally {
      await sql`alter table daily_quota_gone rename to daily_quota`.execute(t.ctx.db);
    }
    expect((await get(t, PATHS.productInfo, 'en', tokens.alice)).body.code).toBe(0);
  });

  it('a11 (401): a call without a session', async () => {
    await expectMessage('UNAUTHORIZED', 'a11', (lang) => get(t, PATHS.userInfo, lang));
  });

  it('a12 (403): an operator call by someone who is not one', async () => {
    await expectMessage('FORBIDDEN', 'a12', (lang) => get(t, PATHS.operatorReviews, lang, tokens.alice));
  });

  it('a13 (404): an address with no route', async () => {
    await expectMessage('NOT_FOUND', 'a13', (lang) => get(t, '/api/no-such-address', lang, tokens.alice));
  });

  it('a14 (408): a request whose body does not arrive in time', async () => {
    await expectMessage('TIMEOUT', 'a14', (lang) =>
      rawRequest(
        base,
        `POST ${PATHS.productBuy} HTTP/1.1\r\nHost: x\r\nX-Lang: ${lang}\r\nAuthorization: Bearer ${tokens.alice}\r\n` +
          `Idempotency-Key: ${newKey()}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"product":`,
      ),
    );
  });

  it('a15 (501): a method not implemented here (PUT on a known path, PROPFIND anywhere)', async () => {
    await expectMessage('NOT_IMPLEMENTED', 'a15', (lang) =>
      t.app.inject({ method: 'PUT', url: PATHS.home, headers: { 'x-lang': lang } }).then(reply),
    );
    const propfind = await t.app.inject({ method: 'PROPFIND', url: '/api/anything' });
    expect(propfind.json().code).toBe(ERRORS.NOT_IMPLEMENTED.code);
    // A known method on an unknown path stays 404.
    expect((await t.app.inject({ method: 'POST', url: '/api/no-such-address' })).json().code).toBe(ERRORS.NOT_FOUND.code);
  });

  it('a16 (502): the exchange’s sign-in server answers badly', async () => {
    stub.set('bad');
    await expectMessage('BAD_GATEWAY', 'a16', (lang) => get(u, PATHS.authorPage, lang, undefined, { redirectUri: REDIRECT_URI }));
  });

  it('a18 (504): the exchange’s sign-in server does not answer in time', async () => {
    stub.set('hang');
    await expectMessage('GATEWAY_TIMEOUT', 'a18', (lang) => get(u, PATHS.authorPage, lang, undefined, { redirectUri: REDIRECT_URI }));
  });

  // PGlite runs inside the server process: there is no connection to lose, so 503 cannot occur there.
  it.runIf(kind === 'postgres')('a17 (503): the database unreachable', async () => {
    await proxy.cut('refuse');
    try {
      await expectMessage('UNAVAILABLE', 'a17', (lang) => get(u, PATHS.home, lang));
    } finally {
      await proxy.restore();
    }
    expect((await get(u, PATHS.home, 'en')).body.code).toBe(0);
  });

  it('a19 (505): a request line of an HTTP version other than 1.0 and 1.1', async () => {
    await expectMessage('HTTP_VERSION', 'a19', (lang) =>
      rawRequest(base, `GET ${PATHS.home} HTTP/2.0\r\nHost: x\r\nX-Lang: ${lang}\r\n\r\n`),
    );
    // Versions the parser itself refuses get the same answer (in English: no headers were read).
    for (const line of [`GET ${PATHS.home} HTTP/1.2`, 'PRI * HTTP/2.0']) {
      const answer = await rawRequest(base, `${line}\r\nHost: x\r\n\r\n`);
      expect({ status: answer.status, code: answer.body.code, msg: answer.body.msg }).toEqual({
        status: 505, code: 505, msg: textOf('en', 'a19'),
      });
    }
  });

  it('a20 (106): claiming when nothing is claimable', async () => {
    await expectMessage('CLAIM_NONE', 'a20', (lang) => post('alice', PATHS.receive, lang, {}));
  });

  it('a21 (110): a purchase before an inviter is bound', async () => {
    await expectMessage('BIND_FIRST', 'a21', (lang) => post('bob', PATHS.productBuy, lang, { product: 'current', amount: '5' }));
  });
});
