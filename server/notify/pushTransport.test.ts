import type { RequestDetails } from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { type PushReceiver, startPushReceiver } from '../test/pushReceiver.ts';
import { endpointProblem, subscribeProblem } from './push.ts';
import { deliverPush, lookupAll, type PushPolicy, type Resolved, type Resolver } from './pushTransport.ts';

/** A server on a public address (the probe's PUBLIC_URL=https://earn.example.com DEMO=true). */
const publicServer: PushPolicy = loadConfig({ PUBLIC_URL: 'https://earn.example.com', DEMO: 'true' });
const anyHost: PushPolicy = { pushLocalEndpoints: false, pushAllowedHosts: [] };
const local: PushPolicy = { pushLocalEndpoints: true, pushAllowedHosts: [] };

/** The addresses of the probe that made the server connect to itself. */
const PROBE = [
  'https://[::ffff:7f00:1]:4161/b',
  'https://[::ffff:127.0.0.1]:4162/c',
  'https://[0:0:0:0:0:ffff:7f00:1]:4166/h',
  'https://[::ffff:a9fe:a9fe]/',
  'https://localhost./',
  'https://metadata.google.internal./',
  'https://127.0.0.1.nip.io/',
];

const V4 = 4;
/** A resolver for the tests: these names to these addresses, others not found; it counts its lookups. */
function resolver(names: Record<string, string[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (host: string): Promise<Resolved[]> => {
    asked.push(host);
    const addresses = names[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : V4 }));
  };
  return Object.assign(resolve, { asked });
}

const pushTo = (endpoint: string): RequestDetails => ({
  method: 'POST',
  endpoint,
  headers: { TTL: '60', 'Content-Type': 'application/octet-stream' },
  body: Buffer.from('sealed'),
});

describe('PUSH_ALLOWED_HOSTS', () => {
  it("defaults to the browsers' push services on a public address, to any host on a local one", () => {
    expect(publicServer.pushAllowedHosts).toEqual([
      'fcm.googleapis.com', 'updates.push.services.mozilla.com', 'push.services.mozilla.com', 'web.push.apple.com', 'notify.windows.com',
    ]);
    expect(loadConfig({}).pushAllowedHosts).toEqual([]);
    const env = { PUBLIC_URL: 'https://earn.example.com', DEMO: 'true' };
    expect(loadConfig({ ...env, PUSH_ALLOWED_HOSTS: ' push.example.org, FCM.googleapis.com. ' }).pushAllowedHosts).toEqual([
      'push.example.org', 'fcm.googleapis.com',
    ]);
    expect(loadConfig({ ...env, PUSH_ALLOWED_HOSTS: '*' }).pushAllowedHosts).toEqual([]);
    for (const value of ['https://fcm.googleapis.com', '*.notify.windows.com', ',', 'fcm.googleapis.com/x']) {
      expect(() => loadConfig({ ...env, PUSH_ALLOWED_HOSTS: value }), value).toThrow(ConfigError);
    }
  });

  it('refuses a host that is not a listed push service or under one, and takes those that are', () => {
    for (const endpoint of ['https://evil.example/', 'https://fcm.googleapis.com.evil.example/x', 'https://notfcm.googleapis.com/x',
      'https://8.8.8.8/x']) {
      expect(endpointProblem(endpoint, publicServer), endpoint).toMatch(/PUSH_ALLOWED_HOSTS/);
    }
    for (const endpoint of ['https://fcm.googleapis.com/fcm/send/x', 'https://updates.push.services.mozilla.com/wpush/v2/x',
      'https://web.push.apple.com/QG', 'https://wns2-par02p.notify.windows.com/w/?token=x']) {
      expect(endpointProblem(endpoint, publicServer), endpoint).toBeNull();
    }
    // Listed hosts are still https only on a public server, and a local server may list its own.
    expect(endpointProblem('http://fcm.googleapis.com/fcm/send/x', publicServer)).toBe('the endpoint is not https');
    expect(endpointProblem('http://127.0.0.1:4000/x', { pushLocalEndpoints: true, pushAllowedHosts: ['push.test'] })).toMatch(/PUSH_ALLOWED_HOSTS/);
  });
});

describe('push addresses on a public server', () => {
  it("refuses each of the probe's addresses before anything connects", async () => {
    for (const endpoint of PROBE) expect(endpointProblem(endpoint, publicServer), endpoint).not.toBeNull();
    // With any host allowed, the text refuses all but the public name; what that name resolves to refuses it.
    for (const endpoint of PROBE.slice(0, -1)) expect(endpointProblem(endpoint, anyHost), endpoint).toBe('the endpoint is a local address');
    const nipIo = resolver({ '127.0.0.1.nip.io': ['127.0.0.1'] });
    expect(endpointProblem('https://127.0.0.1.nip.io/', anyHost)).toBeNull();
    expect(await subscribeProblem('https://127.0.0.1.nip.io/', anyHost, nipIo)).toBe('the endpoint resolves to a local address (127.0.0.1)');
    // A local server (a laptop, the tests) takes them all and resolves nothing when subscribing.
    for (const endpoint of PROBE) expect(await subscribeProblem(endpoint, local, nipIo), endpoint).toBeNull();
    expect(nipIo.asked).toEqual(['127.0.0.1.nip.io']);
  });

  it('refuses, when subscribing, a name any of whose addresses is local; a lookup that fails refuses nothing', async () => {
    const names = resolver({ 'mixed.example.net': ['8.8.8.8', '::ffff:10.0.0.1'], 'public.example.net': ['8.8.8.8', '2606:4700::1111'] });
    expect(await subscribeProblem('https://mixed.example.net/x', anyHost, names)).toBe('the endpoint resolves to a local address (::ffff:10.0.0.1)');
    expect(await subscribeProblem('https://public.example.net/x', anyHost, names)).toBeNull();
    expect(await subscribeProblem('https://unknown.example.net/x', anyHost, names)).toBeNull();
  });
});

describe('sending a push', () => {
  let push: PushReceiver;
  let port: string;
  beforeAll(async () => {
    push = await startPushReceiver();
    port = new URL(push.url).port;
  });
  afterAll(() => push?.close());

  it('refuses, on a public server, a name that resolves to loopback: nothing reaches the push service on 127.0.0.1', async () => {
    const rebound = resolver({ 'push.example.net': ['127.0.0.1'], 'two.example.net': ['93.184.215.14', '127.0.0.1'] });
    for (const host of ['push.example.net', 'two.example.net']) {
      for (const scheme of ['https', 'http']) {
        const delivery = await deliverPush(pushTo(`${scheme}://${host}:${port}/rebound`), anyHost, rebound, 5_000);
        expect(delivery, `${scheme} ${host}`).toEqual({ refused: 'the endpoint resolves to a local address (127.0.0.1)' });
      }
    }
    // An address written in the URL is looked up too (to itself) and refused, however it is spelt.
    for (const endpoint of PROBE.slice(0, 3).map((url) => url.replace(/:\d+\//, `:${port}/`))) {
      expect(await deliverPush(pushTo(endpoint), anyHost, lookupAll, 5_000), endpoint).toMatchObject({ refused: expect.any(String) });
    }
    expect(push.requests).toEqual([]);
  });

  it('connects to the address it checked, with the name in the Host header, and no second lookup', async () => {
    const names = resolver({ 'push.test': ['127.0.0.1'] });
    const delivery = await deliverPush(pushTo(`http://push.test:${port}/pinned`), local, names, 5_000);
    expect(delivery).toEqual({ status: 201 });
    expect(names.asked).toEqual(['push.test']);
    const [request] = push.requests.filter((r) => r.path === '/pinned');
    expect(request?.headers).toMatchObject({ host: `push.test:${port}`, ttl: '60' });
    expect(request?.body.toString()).toBe('sealed');
  });

  it('does not follow a redirect: its 3xx is the answer', async () => {
    push.answer('/moved', 302, { location: `${push.url}/followed` });
    push.answer('/moved-for-good', 308, { location: `${push.url}/followed` });
    const names = resolver({ 'push.test': ['127.0.0.1'] });
    expect(await deliverPush(pushTo(`http://push.test:${port}/moved`), local, names, 5_000)).toEqual({ status: 302 });
    expect(await deliverPush(pushTo(`http://push.test:${port}/moved-for-good`), local, names, 5_000)).toEqual({ status: 308 });
    expect(push.requests.map((r) => r.path).filter((path) => path !== '/pinned')).toEqual(['/moved', '/moved-for-good']);
  });

  it('gives up (status 0, not a refusal) on a lookup that fails or never ends, within the timeout', async () => {
    const never: Resolver = () => new Promise(() => {});
    const started = Date.now();
    expect(await deliverPush(pushTo('https://slow.example.net/x'), anyHost, never, 100)).toEqual({ status: 0 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await deliverPush(pushTo('https://gone.example.net/x'), anyHost, resolver({}), 5_000)).toEqual({ status: 0 });
  });
});
