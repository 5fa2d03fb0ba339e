import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS, SERVER_TIME_HEADER } from '../../contract/paths.ts';
import { DAY_MS, fixedClock } from '../platform/clock.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';

/** Issue 61, "Time from the server": every API answer says the server's clock, the demo clock included. */
describe('the server’s time on each answer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { clock: fixedClock(new Date('2027-01-06T08:00:00Z')) });
  });
  afterAll(() => t?.close());

  it('sends the clock of the server on API answers, moved with it, and not on the app’s page', async () => {
    expect((await t.app.inject({ url: PATHS.home })).headers[SERVER_TIME_HEADER]).toBe('2027-01-06T08:00:00.000Z');
    // Refusals too: a screen that fails still learns the time.
    expect((await t.app.inject({ url: PATHS.userInfo })).headers[SERVER_TIME_HEADER]).toBe('2027-01-06T08:00:00.000Z');
    t.ctx.clock.advance(9 * DAY_MS);
    expect((await t.app.inject({ url: PATHS.home })).headers[SERVER_TIME_HEADER]).toBe('2027-01-15T08:00:00.000Z');
    expect((await t.app.inject({ url: '/' })).headers[SERVER_TIME_HEADER]).toBeUndefined();
  });
});
