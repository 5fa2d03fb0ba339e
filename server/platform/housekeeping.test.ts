import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../contract/paths.ts';
import { DAY_MS } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { authorize, bearer, newKey, post, signIn } from '../test/signIn.ts';
import { purgeExpired } from './housekeeping.ts';

describe.each(DATABASES)('housekeeping on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  it('removes expired idempotency answers and sign-in states, and nothing else', async () => {
    const { token, userId } = await signIn(t.app, { name: 'Kay' });
    const oldKey = newKey();
    await post(t.app, PATHS.transferIn, token, { asset: 'AIC', amount: '5' }, oldKey);
    await authorize(t.app, { name: 'Lee' }); // a state issued and never used
    t.ctx.clock.advance(8 * DAY_MS);
    const { token: fresh } = await signIn(t.app, { name: 'Kay 2' });
    const freshKey = newKey();
    await post(t.app, PATHS.transferIn, fresh, { asset: 'AIC', amount: '5' }, freshKey);

    const purged = await purgeExpired(t.ctx);
    expect(purged.idempotency).toBe(1);
    expect(purged.states).toBeGreaterThanOrEqual(3);
    const keys = await t.ctx.db.selectFrom('idempotency_keys').select('key').execute();
    expect(keys.map((k) => k.key)).toEqual([freshKey]);
    expect(await t.ctx.db.selectFrom('oauth_states').selectAll().execute()).toEqual([]);
    // The money moved stays moved, and sessions stay as history.
    const records = (await t.app.inject({ url: PATHS.transferRecords, headers: bearer(fresh) })).json().data.items;
    expect(records).toHaveLength(1);
    const sessions = await t.ctx.db.selectFrom('sessions').select('user_id').where('user_id', '=', BigInt(userId)).execute();
    expect(sessions).toHaveLength(1);
    t.ctx.clock.advance(-8 * DAY_MS);
  });
});
