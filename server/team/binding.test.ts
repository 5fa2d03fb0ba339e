import fc from 'fast-check';
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { PATHS } from '../../contract/paths.ts';
import { createSession } from '../auth/sessions.ts';
import * as m0013 from '../db/migrations/0013_tree_repair.ts';
import { verifyDay } from '../settlement/verify.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { post } from '../test/signIn.ts';
import { checkTree } from './tree.ts';

/** The repair migration, run again by hand (a migration takes any database). */
const repairTree: Migration = m0013;

type Holder = { id: bigint; token: string; code: string };

const ROUNDS = 50;
const OPERATOR = 900_000n;
const { INVITE_CODE, INVITE_BOUND, INVITE_OWN, NOT_IN_CYCLE } = ERRORS;

describe.each(DATABASES)('binding under concurrent binds, and the tree check, on %s', (kind) => {
  let t: TestApp;
  let operatorToken: string;
  let nextId = 1_000n;

  /** New holders written straight into the database, each with a session: quicker than sign-ins. */
  async function holders(n: number): Promise<Holder[]> {
    const made: Holder[] = [];
    for (let i = 0; i < n; i++) {
      const id = nextId++;
      const code = `B${id}`;
      await sql`insert into users (id, subject, name, invite_code) values (${id}, ${`bind-${id}`}, ${`holder ${id}`}, ${code})`.execute(t.ctx.db);
      made.push({ id, code, token: await createSession(t.ctx.db, id, 30, undefined) });
    }
    return made;
  }

  const bind = async (who: Holder, inviter: Holder) => {
    const res = await post(t.app, PATHS.bindInviter, who.token, { inviteCode: inviter.code });
    expect(res.statusCode, res.body).toBeLessThan(500);
    return res.json().code as number;
  };

  /** Every stored path equals its inviter's path plus the inviter, walked from inviter_id here. */
  async function expectTreeSound() {
    const rows = await t.ctx.db.selectFrom('users').select(['id', 'inviter_id', 'path', 'parent', 'depth']).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const row of rows) {
      const expected: bigint[] = [];
      for (let at = row.inviter_id; at !== null; at = byId.get(at)?.inviter_id ?? null) {
        expect(expected.includes(at) || at === row.id, `cycle through ${row.id}`).toBe(false);
        expected.unshift(at);
      }
      expect(row.path.map(String)).toEqual(expected.map(String));
      // The roll-up reads these (migration 0033): the generated columns follow every path written.
      expect({ parent: row.parent?.toString() ?? null, depth: row.depth }).toEqual({
        parent: expected.at(-1)?.toString() ?? null,
        depth: expected.length,
      });
    }
    expect(await checkTree(t.ctx.db)).toMatchObject({ ok: true, stalePaths: 0, cycles: [], selfRebateLines: 0 });
  }

  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false, config: { operatorUserIds: [OPERATOR] } });
    await sql`insert into users (id, subject, name, invite_code) values (${OPERATOR}, 'operator', 'Olga', 'OPERATOR')`.execute(t.ctx.db);
    operatorToken = await createSession(t.ctx.db, OPERATOR, 30, undefined);
  });
  afterAll(() => t?.close());

  it(`the probe's interleaving, ${ROUNDS} times: the cycle W>X>Y>Z>W never closes`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const [w, x, y, z] = (await holders(4)) as [Holder, Holder, Holder, Holder];
      expect(await bind(y, z)).toBe(0);
      expect(await Promise.all([bind(z, w), bind(x, y)])).toEqual([0, 0]);
      expect(await bind(w, x)).toBe(INVITE_CODE.code);
    }
    await expectTreeSound();
  });

  it('random four-way races: all binds of a round at once, never a cycle, a 5xx or a stale path', async () => {
    const round = fc.array(fc.tuple(fc.nat(3), fc.nat(3)), { minLength: 1, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(round, async (binds) => {
        const four = await holders(4);
        // Four holders each binding the next at once is the tightest race: one must lose.
        const ring = four.map((who, i) => [who, four[(i + 1) % 4]] as [Holder, Holder]);
        const chosen = binds.map(([a, b]) => [four[a], four[b]] as [Holder, Holder]);
        const codes = await Promise.all([...ring, ...chosen].map(([who, inviter]) => bind(who, inviter)));
        // A round may have a holder bind their own code (107): refused before the tree is read.
        for (const code of codes) expect([0, INVITE_CODE.code, INVITE_BOUND.code, INVITE_OWN.code]).toContain(code);
        expect(codes.slice(0, 4).filter((code) => code === 0).length).toBeLessThanOrEqual(3);
      }),
      { numRuns: ROUNDS },
    );
    await expectTreeSound();
  });

  it('turns red on a cycle planted by hand, until the operator unbinds a member (audited)', async () => {
    const [a, b, c, below] = (await holders(4)) as [Holder, Holder, Holder, Holder];
    expect(await bind(below, c)).toBe(0);
    // a > b > c > a, written as the race used to leave it.
    const plant = (who: Holder, inviter: Holder, path: Holder[]) =>
      t.ctx.db.updateTable('users').set({ inviter_id: inviter.id, path: path.map((h) => h.id) }).where('id', '=', who.id).execute();
    await plant(a, c, [b, a, c]);
    await plant(b, a, [c, a]);
    await plant(c, b, [a, b]);
    const red = await checkTree(t.ctx.db);
    expect(red.ok).toBe(false);
    expect(red.cycles).toEqual([[a.id, c.id, b.id].map(String)]);

    const report = await t.app.inject({ url: PATHS.operatorLedger, headers: { authorization: `Bearer ${operatorToken}` } });
    expect(report.json().data).toMatchObject({ ok: false, tree: { ok: false, cycles: [[a.id, c.id, b.id].map(String)] } });

    // The repair migration rewrites what it can reach from a root, and leaves the cycle for the operator.
    await repairTree.up(t.ctx.db);
    expect((await checkTree(t.ctx.db)).cycles).toHaveLength(1);

    const unbind = (who: Holder) => post(t.app, PATHS.operatorUnbind, operatorToken, { userId: String(who.id) });
    expect((await unbind(below)).json().code).toBe(NOT_IN_CYCLE.code);
    const done = await unbind(b);
    expect(done.json()).toMatchObject({ code: 0, data: { userId: String(b.id), formerInviter: String(a.id) } });
    await expectTreeSound();
    const row = await t.ctx.db.selectFrom('users').select('path').where('id', '=', below.id).executeTakeFirstOrThrow();
    expect(row.path.map(String)).toEqual([b.id, c.id].map(String));
    const entry = await t.ctx.db.selectFrom('operator_audit').selectAll().where('action', '=', 'unbind').executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ operator_id: OPERATOR, target: `user:${b.id}` });
    expect((await unbind(b)).json().code).toBe(NOT_IN_CYCLE.code);
  });

  it('the repair migration writes a stale path again, for the holder and the downline', async () => {
    const [root, mid, leaf] = (await holders(3)) as [Holder, Holder, Holder];
    expect(await bind(mid, root)).toBe(0);
    expect(await bind(leaf, mid)).toBe(0);
    await sql`update users set path = '{}' where id = ${mid.id}`.execute(t.ctx.db);
    await sql`update users set path = array[${mid.id}]::bigint[] where id = ${leaf.id}`.execute(t.ctx.db);
    // The leaf agrees with its (stale) inviter: the check names the top of the stale branch.
    expect(await checkTree(t.ctx.db)).toMatchObject({ ok: false, stalePaths: 1, staleSample: [String(mid.id)] });
    await repairTree.up(t.ctx.db);
    await expectTreeSound();
    const repaired = await t.ctx.db.selectFrom('users').select('path').where('id', '=', leaf.id).executeTakeFirstOrThrow();
    expect(repaired.path.map(String)).toEqual([root.id, mid.id].map(String));
  });

  it('a rebate line paying its own earner turns the tree check and the verifier red', async () => {
    const [holder] = (await holders(1)) as [Holder];
    const day = '2026-10-30';
    await t.ctx.db
      .insertInto('income')
      .values({ user_id: holder.id, order_id: 1n, day, kind: 'rebate', amount: 1n, inputs: JSON.stringify({ earner: String(holder.id), generation: 1, level: 1, rate: '0.10', source: '10' }) })
      .execute();
    expect((await checkTree(t.ctx.db)).selfRebateLines).toBe(1);
    const report = await verifyDay(t.ctx.db, t.ctx.config, day);
    expect(report.problems.some((p) => p.includes('pays its own earner'))).toBe(true);
    await t.ctx.db.deleteFrom('income').where('user_id', '=', holder.id).execute();
  });
});
