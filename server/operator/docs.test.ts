import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';

/** Every call of spec section 7, plus the calls the product adds for them. */
const SPEC_CALLS = [
  ['get', '/api/home'],
  ['get', '/api/authorPage'],
  ['get', '/api/login'],
  ['get', '/api/product/info'],
  ['get', '/api/user/invite-records'],
  ['get', '/api/user/product-list'],
  ['get', '/api/user/product'],
  ['get', '/api/user/reward-log'],
  ['get', '/api/user/my-product-list'],
  ['get', '/api/user/user-log'],
  ['get', '/api/user/zero-profit'],
  ['get', '/api/user/zero-log'],
  ['get', '/api/getAsset'],
  ['get', '/api/transferPage'],
  ['get', '/api/transfer-records'],
  ['post', '/api/product/buy'],
  ['post', '/api/user/redeem-regular'],
  ['post', '/api/user/redeem-current'],
  ['post', '/api/user/receive'],
  ['post', '/api/user/receive-profit'],
  ['post', '/api/user/one-rebuy'],
  ['post', '/api/user/cancel-rebuy'],
  ['post', '/api/withdraw'],
] as const;

describe('OpenAPI at /docs/json', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(async () => {
    await t.close();
  });

  it('documents every call of the spec with its answers', async () => {
    const doc = (await t.app.inject({ url: '/docs/json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const [method, path] of SPEC_CALLS) {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.responses['200'], `${method} ${path}`).toBeDefined();
      expect(operation.responses['4XX'] ?? operation.responses['4xx'], `${method} ${path} errors`).toBeDefined();
    }
  });

  it('serves the docs page', async () => {
    const page = await t.app.inject({ url: '/docs/' });
    expect([200, 302]).toContain(page.statusCode);
  });
});
