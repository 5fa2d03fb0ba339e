import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { authorize, bearer, CookieJar, signIn } from '../test/signIn.ts';

/**
 * One browser (one cookie jar) that is already signed in at the exchange comes back through
 * authorisation, as the web app sends it after a logout: with prompt=login it may switch account.
 */
describe.each(DATABASES)('switching account at the embedded exchange on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  const freshLogin = { prompt: 'login' };
  const nameOf = async (token: string) =>
    (await t.app.inject({ url: '/api/user/info', headers: bearer(token) })).json().data.name as string;

  it('signs a different demo account in after prompt=login', async () => {
    const jar = new CookieJar();
    const mia = await signIn(t.app, { name: 'Mia' }, {}, jar);
    const alice = await signIn(t.app, { account: 'demo-alice' }, freshLogin, jar);
    expect(alice.userId).not.toBe(mia.userId);
    expect(alice.userId).toBe((await signIn(t.app, { account: 'demo-alice' })).userId);
    expect(await nameOf(alice.token)).toBe('Alice');
  });

  it('signs a newly created account in after prompt=login', async () => {
    const jar = new CookieJar();
    const bob = await signIn(t.app, { account: 'demo-bob' }, {}, jar);
    const nina = await signIn(t.app, { name: 'Nina' }, freshLogin, jar);
    expect(nina.userId).not.toBe(bob.userId);
    expect(await nameOf(nina.token)).toBe('Nina');
    // The exchange's session is now Nina's: without prompt=login she comes straight back.
    const flow = await authorize(t.app, { account: 'demo-bob' }, {}, jar);
    expect(flow.signInPage).toBe(false);
    const again = (await t.app.inject({ url: '/api/login', query: { code: flow.code, state: flow.state } })).json();
    expect(again.data.userId).toBe(nina.userId);
  });

  it('signs the same account in again after prompt=login', async () => {
    const jar = new CookieJar();
    const first = await signIn(t.app, { account: 'demo-chen' }, {}, jar);
    const flow = await authorize(t.app, { account: 'demo-chen' }, freshLogin, jar);
    expect(flow.signInPage).toBe(true);
    const second = (await t.app.inject({ url: '/api/login', query: { code: flow.code, state: flow.state } })).json();
    expect(second.data.userId).toBe(first.userId);
  });

  it('without prompt=login signs the exchange session straight back in', async () => {
    const jar = new CookieJar();
    const first = await signIn(t.app, { account: 'demo-siti' }, {}, jar);
    const flow = await authorize(t.app, { account: 'demo-alice' }, {}, jar);
    expect(flow.signInPage).toBe(false);
    const second = (await t.app.inject({ url: '/api/login', query: { code: flow.code, state: flow.state } })).json();
    expect(second.data.userId).toBe(first.userId);
  });
});
