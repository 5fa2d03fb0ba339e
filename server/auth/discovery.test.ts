import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { installDiscoveryReadiness } from './discovery.ts';

/** What the fake exchange answers at its discovery address. */
let answer: 'good' | 'failing' | 'another issuer' = 'good';
const exchange = createServer((request, response) => {
  const base = `http://127.0.0.1:${(exchange.address() as AddressInfo).port}`;
  if (answer === 'failing' || request.url !== '/.well-known/openid-configuration') return void response.writeHead(500).end();
  const issuer = answer === 'good' ? base : 'https://someone-else.aic-earn.test';
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ issuer, authorization_endpoint: `${base}/auth`, token_endpoint: `${base}/token`, jwks_uri: `${base}/jwks` }));
});

describe('/readyz with a real exchange (OIDC_ISSUER)', () => {
  const app = Fastify();
  beforeAll(async () => {
    await new Promise<void>((resolve) => exchange.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(exchange.address() as AddressInfo).port}`;
    const config = loadConfig({ OIDC_ISSUER: issuer, OIDC_CLIENT_SECRET: 's3cret', EXCHANGE_API_URL: `${issuer}/api` });
    // As observability.ts's /readyz answers with the database ready.
    app.get('/readyz', async () => ({ status: 'ready' }));
    app.get('/healthz', async () => ({ status: 'ok' }));
    // Nothing remembered between calls here, so each call sees the exchange as it is now.
    installDiscoveryReadiness(app, config, 0);
  });
  afterAll(async () => {
    await app.close();
    await new Promise((resolve) => exchange.close(resolve));
  });

  it('is ready while discovery answers, and 503 while it fails or names another issuer', async () => {
    const ready = async () => {
      const reply = await app.inject({ url: '/readyz' });
      return [reply.statusCode, reply.json().status];
    };
    expect(await ready()).toEqual([200, 'ready']);
    answer = 'failing';
    expect(await ready()).toEqual([503, 'exchange discovery failing']);
    answer = 'another issuer';
    expect(await ready()).toEqual([503, 'exchange discovery failing']);
    answer = 'good';
    expect(await ready()).toEqual([200, 'ready']);
  });

  it('leaves the other routes alone', async () => {
    answer = 'failing';
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    answer = 'good';
  });
});

describe('/readyz with the embedded exchange', () => {
  it('does not look at discovery (the provider is this process)', async () => {
    const app = Fastify();
    app.get('/readyz', async () => ({ status: 'ready' }));
    installDiscoveryReadiness(app, loadConfig({}), 0);
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
    await app.close();
  });
});
