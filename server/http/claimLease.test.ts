import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { PATHS } from '../../contract/paths.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { newKey, post, signIn } from '../test/signIn.ts';

/**
 * A claim-first effect (the operator's settle) whose process died with its key claimed, before
 * storing an answer or releasing the key, as a kill -9 or a failover leaves it: a repeat with
 * the same key is told to wait while the claim is recent, and takes the work over once the claim
 * is older than its lease (5 minutes), so the retry takes effect instead of waiting forever.
 */
describe.each(DATABASES)('a claimed key whose process died, on %s', (kind) => {
  let t: TestApp;
  let operator: { token: string; userId: string };

  beforeAll(async () => {
    t = await startTestApp(kind, { config: { operatorUserIds: [1n] } });
    operator = await signIn(t.app, { name: 'Olga' });
  });
  afterAll(async () => {
    await t.close();
  });

  /** Settles with `key`, then leaves the key as a process that died mid-work would: claimed `ago`, no answer. */
  async function claimedAndAbandoned(key: string, ago: string): Promise<void> {
    expect((await post(t.app, PATHS.operatorSettle, operator.token, {}, key)).json().code).toBe(0);
    await t.ctx.db
      .updateTable('idempotency_keys')
      .set({ response_status: null, response_body: null, claimed_at: sql<Date>`now() - ${ago}::interval` })
      .where('key', '=', key)
      .execute();
  }

  it('answers busy while the claim is recent', async () => {
    const key = newKey();
    await claimedAndAbandoned(key, '1 minute');
    const repeat = await post(t.app, PATHS.operatorSettle, operator.token, {}, key);
    expect({ status: repeat.statusCode, code: repeat.json().code }).toEqual({ status: 409, code: ERRORS.IDEMPOTENCY_BUSY.code });
  });

  it('takes the work over once the claim is past its lease, and stores its answer for the next repeat', async () => {
    const key = newKey();
    await claimedAndAbandoned(key, '6 minutes');
    const taken = await post(t.app, PATHS.operatorSettle, operator.token, {}, key);
    expect(taken.statusCode).toBe(200);
    expect(taken.json().code).toBe(0);
    const again = await post(t.app, PATHS.operatorSettle, operator.token, {}, key);
    expect(again.json()).toEqual(taken.json());
    const row = await t.ctx.db.selectFrom('idempotency_keys').select(['response_status', 'claimed_at']).where('key', '=', key).executeTakeFirstOrThrow();
    expect(row.response_status).toBe(200);
    // The claim was renewed when taken over: now, not six minutes ago.
    expect(Date.now() - (row.claimed_at as Date).getTime()).toBeLessThan(60_000);
  });
});
