import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, httpStatusForCode } from '../../contract/errors.ts';
import { createSession } from '../auth/sessions.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { signIn } from '../test/signIn.ts';
import { badRequests, edgeRequests, type FuzzRequest, type Operation } from './fuzzInputs.ts';
import { ledgerSnapshot } from './snapshot.ts';

/** Runs per route and caller: 15 keeps the whole walk near 30 s per database on 2 cores. */
const RUNS = 15;
const CODES = new Set<number>(Object.values(ERRORS).map((e) => e.code));
/** What must never reach a caller: stack frames, SQL, driver and database messages. */
const INTERNALS = /Error:|\.ts:\d|\bat \w+ \(|SELECT |INSERT |UPDATE |relation "|violates|syntax error|invalid input/;

type Caller = { token: string; userId: string };

/** The answer to a bad request: a catalogued refusal in the envelope, never a 5xx or internals. */
function expectCleanAnswer(res: LightMyRequestResponse, req: FuzzRequest): void {
  const label = `${req.method} ${req.url.slice(0, 300)} ${req.payload?.slice(0, 300) ?? ''}`;
  expect(res.statusCode, label).toBeLessThan(500);
  if (!String(res.headers['content-type']).includes('application/json')) {
    // A download (the CSV statement) when the request was acceptable after all.
    expect({ status: res.statusCode, method: req.method, surelyInvalid: req.surelyInvalid }, label).toEqual({
      status: 200,
      method: 'GET',
      surelyInvalid: false,
    });
    return;
  }
  const body = res.json() as { code: unknown; msg: unknown; data: unknown };
  expect(Object.keys(body).sort(), label).toEqual(['code', 'data', 'msg']);
  expect(typeof body.msg, label).toBe('string');
  expect(body.msg, label).not.toMatch(INTERNALS);
  if (body.code === 0) {
    expect({ status: res.statusCode, surelyInvalid: req.surelyInvalid }, `accepted: ${label}`).toEqual({ status: 200, surelyInvalid: false });
    return;
  }
  expect(CODES.has(body.code as number), `${body.code} in the catalogue: ${label}`).toBe(true);
  expect({ status: res.statusCode, data: body.data }, label).toEqual({ status: httpStatusForCode(body.code as number), data: null });
}

/**
 * Every /api route in the app's route table (so a new route is fuzzed as soon as it exists),
 * with bad parameters in its path, query and body, as a signed-in user and, for operator routes,
 * as an operator too: each answer is a clean envelope and nothing of value changes.
 */
describe.each(DATABASES)('fuzzing every /api call on %s', (kind) => {
  let t: TestApp;
  let operator: Caller;
  let user: Caller;
  beforeAll(async () => {
    t = await startTestApp(kind, { config: { operatorUserIds: [1n] } });
    operator = await signIn(t.app, { name: 'fuzz operator' });
    user = await signIn(t.app, { name: 'fuzz user' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers bad input on every route with a catalogued refusal and changes nothing', async () => {
    const spec = t.app.swagger() as { paths: Record<string, Record<string, Operation>> };
    const routes = t.app.routeTable.filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(30);
    let sent = 0;
    let refused = 0;
    for (const route of routes) {
      const op = spec.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
      const callers = route.url.startsWith('/api/operator/') ? [user, operator] : [user];
      for (const caller of callers) {
        const before = await ledgerSnapshot(t.ctx.db);
        const clock = t.ctx.clock.now().getTime();
        const requests = badRequests(route, op, { operator: caller === operator });
        // First the same edges every run (as the user: an operator's edge may be valid), then random.
        const examples = caller === user ? edgeRequests(route, op).map((req) => [req] as [FuzzRequest]) : [];
        await fc.assert(
          fc.asyncProperty(requests, async (req) => {
            // A session of its own per request: some calls (logout, revoke) end the session they use.
            const token = await createSession(t.ctx.db, BigInt(caller.userId), 1, 'fuzz');
            const res = await t.app.inject({
              method: req.method as 'GET' | 'POST',
              url: req.url,
              headers: { ...req.headers, authorization: `Bearer ${token}` },
              ...(req.payload === undefined ? {} : { payload: req.payload }),
            });
            sent++;
            if (res.statusCode >= 400) refused++;
            expectCleanAnswer(res, req);
          }),
          { numRuns: RUNS + examples.length, examples },
        );
        expect(await ledgerSnapshot(t.ctx.db), `${route.method} ${route.url} changed the books`).toBe(before);
        expect(t.ctx.clock.now().getTime()).toBe(clock);
      }
    }
    console.log(`fuzz on ${kind}: ${sent} bad requests over ${routes.length} routes, ${refused} refused, none 5xx, nothing changed`);
  });
});
