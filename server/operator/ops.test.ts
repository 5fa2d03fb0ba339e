import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { PATHS } from '../../contract/paths.ts';
import { buildApp } from '../app.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { authorize, bearer, post, signIn } from '../test/signIn.ts';

describe('operating the server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', {
      config: { rateLimitPostsPerMinute: 3, rateLimitSignInPerMinute: 1000, metricsToken: 'ops-metrics-token' },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers health and readiness', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('exports request figures by route for Prometheus', async () => {
    await t.app.inject({ url: PATHS.home });
    const text = (await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer ops-metrics-token' } })).body;
    expect(text).toMatch(/aic_http_requests_total\{route="\/api\/home",method="GET",status="200"\} \d+/);
    expect(text).toContain('aic_http_request_duration_seconds_bucket');
    expect(text).toContain('aic_ledger_check_ok');
  });

  it('sends security headers with a CSP, and no HSTS over plain http', async () => {
    const res = await t.app.inject({ url: PATHS.home });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('limits money-moving calls per session', async () => {
    const { token } = await signIn(t.app, { name: 'Rita' });
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await post(t.app, PATHS.transferIn, token, { asset: 'AIC', amount: '1' })).json().code);
    expect(codes).toEqual([0, 0, 0, ERRORS.RATE_LIMITED.code]);
  });

  it('refuses oversized bodies with a clear code', async () => {
    const { token } = await signIn(t.app, { name: 'Sam' });
    const res = await post(t.app, PATHS.bindInviter, token, { inviteCode: 'x'.repeat(100_000) });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe(ERRORS.PAYLOAD_TOO_LARGE.code);
  });
});

describe('logs', () => {
  it('carry no tokens, codes or states', async () => {
    let output = '';
    const stream = new Writable({
      write(chunk, _encoding, done) {
        output += chunk;
        done();
      },
    });
    const t = await startTestApp('pglite');
    const app = await buildApp(t.ctx, { logger: { level: 'info', stream } });
    try {
      const { code, state } = await authorize(app, { name: 'Lou' });
      const login = (await app.inject({ url: PATHS.login, query: { code, state } })).json().data;
      await app.inject({ url: PATHS.userInfo, headers: bearer(login.token) });
      expect(output).toContain('/api/login');
      expect(output).not.toContain(login.token.split('.')[1]);
      expect(output).not.toContain(code);
      expect(output).not.toContain(state);
    } finally {
      await app.close();
      await t.close();
    }
  });
});
