import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { PATHS } from '../../contract/paths.ts';
import { fixedClock } from '../platform/clock.ts';
import { type DatabaseKind, startTestApp, type TestApp } from './harness.ts';

/** A minimal cookie jar: what a browser would send back to the provider. */
export class CookieJar {
  private cookies = new Map<string, string>();
  take(response: LightMyRequestResponse): void {
    const header = response.headers['set-cookie'];
    for (const line of [header ?? []].flat()) {
      const [pair] = String(line).split(';');
      const index = pair?.indexOf('=') ?? -1;
      if (!pair || index < 0) continue;
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(String(line))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

const pathOf = (location: string) => {
  const url = new URL(location, 'http://localhost');
  return `${url.pathname}${url.search}`;
};

export const REDIRECT_URI = 'http://localhost:3000/';

const unescapeHtml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] ?? '');

/** The provider's self-submitting form (form_post), as a browser's script would submit it. */
function autoSubmitForm(body: string): { action: string; payload: string } | undefined {
  const form = /<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(body);
  if (!form?.[1] || !/document\.forms\[0\]\.submit\(\)/.test(body)) return undefined;
  const fields = [...(form[2] ?? '').matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)];
  const payload = new URLSearchParams(fields.map(([, k, v]) => [k ?? '', unescapeHtml(v ?? '')]));
  return { action: unescapeHtml(form[1]), payload: payload.toString() };
}

/**
 * Walks the whole redirect flow as a browser would, up to the return to the app with code and
 * state in the query. `choice` picks a demo account by subject or creates one by name. Pass a
 * `jar` kept across calls to act as the same browser (the provider's session cookie); when that
 * session signs in without the sign-in page, `choice` is not used and `signInPage` is false.
 */
export async function authorize(
  app: FastifyInstance,
  choice: { account: string } | { name: string },
  query: Record<string, string> = {},
  jar: CookieJar = new CookieJar(),
): Promise<{ code: string; state: string; returnUrl: URL; signInPage: boolean }> {
  const cookie = () => (jar.header() ? { cookie: jar.header() } : {});
  const page = await app.inject({
    method: 'GET',
    url: '/api/authorPage',
    query: { redirectUri: REDIRECT_URI, lang: 'en', ...query },
  });
  const authUrl = page.json().data as string;
  if (!authUrl) throw new Error(`authorPage: ${page.body}`);

  let response = await app.inject({ method: 'GET', url: pathOf(authUrl), headers: cookie() });
  jar.take(response);
  let location = response.headers.location as string;
  const signInPage = !location?.startsWith(REDIRECT_URI);
  if (signInPage) {
    const interaction = location;
    response = await app.inject({ method: 'GET', url: pathOf(interaction), headers: cookie() });
    if (response.statusCode !== 200) throw new Error(`sign-in page: ${response.statusCode} ${response.body}`);
    response = await app.inject({
      method: 'POST',
      url: pathOf(interaction),
      headers: { ...cookie(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(choice).toString(),
    });
    jar.take(response);
    location = response.headers.location as string;
  }
  for (let hop = 0; hop < 8 && location && !location.startsWith(REDIRECT_URI); hop++) {
    response = await app.inject({ method: 'GET', url: pathOf(location), headers: cookie() });
    jar.take(response);
    location = response.headers.location as string;
    const form = location ? undefined : autoSubmitForm(response.body);
    if (form) {
      response = await app.inject({
        method: 'POST',
        url: pathOf(form.action),
        headers: { ...cookie(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: form.payload,
      });
      jar.take(response);
      location = response.headers.location as string;
    }
  }
  if (!location) throw new Error(`provider stopped the flow: ${response.statusCode} ${response.body}`);
  const returnUrl = new URL(location);
  const code = returnUrl.searchParams.get('code');
  const state = returnUrl.searchParams.get('state');
  if (!code || !state) throw new Error(`no code in ${location}`);
  return { code, state, returnUrl, signInPage };
}

/** Signs in through the embedded provider and answers the session token and user id. */
export async function signIn(
  app: FastifyInstance,
  choice: { account: string } | { name: string } = { account: 'demo-alice' },
  query: Record<string, string> = {},
  jar?: CookieJar,
): Promise<{ token: string; userId: string }> {
  const { code, state } = await authorize(app, choice, query, jar);
  const login = await app.inject({ method: 'GET', url: '/api/login', query: { code, state } });
  const body = login.json();
  if (body.code !== 0) throw new Error(`login: ${login.body}`);
  return body.data;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The first sign-in call (the exchange's address) from a client behind a proxy at 127.0.0.1: its status. */
export async function authorPageVia(app: FastifyInstance, forwardedFor: string): Promise<number> {
  const res = await app.inject({
    url: '/api/authorPage',
    query: { redirectUri: REDIRECT_URI },
    remoteAddress: '127.0.0.1',
    headers: { 'x-forwarded-for': forwardedFor },
  });
  return res.statusCode;
}

let keySeq = 0;
export const newKey = () => `test-key-${process.pid}-${Date.now()}-${++keySeq}`;

/** A POST as the web app sends it: bearer token, JSON body and an Idempotency-Key. */
export function post(
  app: FastifyInstance,
  url: string,
  token: string,
  body: object = {},
  key: string = newKey(),
) {
  return app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(token), 'idempotency-key': key, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

/**
 * The operator (Olga, the first user: list her id in operatorUserIds) and a holder (Hana)
 * bound to her, with 2,000 AIC moved in and 1,000 of it in a 30-day order.
 */
export async function operatorAndHolder(app: FastifyInstance): Promise<{ operator: string; holder: string }> {
  const operator = (await signIn(app, { name: 'Olga' })).token;
  const holder = (await signIn(app, { name: 'Hana' })).token;
  const code = (await app.inject({ url: PATHS.userInfo, headers: bearer(operator) })).json().data.inviteCode;
  await post(app, PATHS.bindInviter, holder, { inviteCode: code });
  await post(app, PATHS.transferIn, holder, { asset: 'AIC', amount: '2000' });
  await post(app, PATHS.productBuy, holder, { product: 'fixed30', amount: '1000' });
  return { operator, holder };
}

/** A holder as the tests sign one in: their token and user id. */
export type SignedIn = { token: string; userId: string };

/**
 * A scenario's app with the clock frozen at `at`, and the people of `names` signed in in that
 * order, the first of them the operator.
 */
export async function startWithPeople(
  kind: DatabaseKind,
  at: string,
  names: string[],
): Promise<{ t: TestApp; people: SignedIn[] }> {
  const t = await startTestApp(kind, { clock: fixedClock(new Date(at)) });
  const people: SignedIn[] = [];
  for (const name of names) people.push(await signIn(t.app, { name }));
  t.ctx.config.operatorUserIds = [BigInt((people[0] as SignedIn).userId)];
  return { t, people };
}
