import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { formatUnits, parseAmount, parseRate, UNIT } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { STATUS_GROUPS } from '../../contract/products.ts';
import { createSession } from '../auth/sessions.ts';
import { checkLedger } from '../ledger/ledger.ts';
import { lineInputs } from '../income/inputs.ts';
import { incomeTotalsMismatched } from '../income/totals.ts';
import { addDays, fixedClock } from '../platform/clock.ts';
import { settleDay } from '../settlement/settle.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { buildTree, insertTree, type Member } from '../test/population.ts';
import { bearer, post } from '../test/signIn.ts';
import { maskUserId, showInviter } from './inviter.ts';
import { inviteRecords, unlockPercent, zeroLog } from './repository.ts';

const units = (text: string): bigint => {
  const parsed = parseAmount(text);
  if (!parsed.ok) throw new Error(`not an amount: ${text}`);
  return parsed.value;
};

const USERS = 10_000;
const DEPTH = 50;
const DAY = '2026-11-10';
/** Holdings chosen so the chain exercises compression and the unlock tiers. */
const SPECIAL: Record<number, bigint> = {
  50: 5n * UNIT, // not effective: the rebate walk must skip user 50
  49: 4_999n * UNIT,
  48: 5_000n * UNIT,
  47: 9_999n * UNIT,
  46: 10_000n * UNIT,
};
const principalOf = (id: number) => SPECIAL[id] ?? BigInt(10 + (id % 90)) * UNIT;

/** An independent reading of the rules: levels, compression and rates, in plain bigint. */
function expectedRebates(members: Member[], staticIncome: Map<bigint, bigint>, thresholds: bigint[], rates: string[]) {
  const teamQuantity = new Map<bigint, bigint>();
  for (const m of members) for (const a of m.path) teamQuantity.set(a, (teamQuantity.get(a) ?? 0n) + m.principal);
  const level = (id: bigint) => thresholds.filter((t) => (teamQuantity.get(id) ?? 0n) >= t).length;
  const byId = new Map(members.map((m) => [m.id, m]));
  const effective = (id: bigint) => (byId.get(id)?.principal ?? 0n) >= 10n * UNIT;
  const paid = new Map<string, bigint>();
  for (const [earner, amount] of staticIncome) {
    let generation = 0;
    for (const ancestor of [...(byId.get(earner)?.path ?? [])].reverse()) {
      if (!effective(ancestor)) continue;
      generation += 1;
      if (generation > rates.length) break;
      if (generation > level(ancestor)) continue;
      const { numerator, denominator } = parseRate(rates[generation - 1] as string);
      const rebate = (amount * numerator) / denominator;
      if (rebate > 0n) paid.set(`${ancestor}|${earner}`, rebate);
    }
  }
  return paid;
}

describe.each(DATABASES)('team, rebates and lock-ups on a 10,000-member tree on %s', (kind) => {
  let t: TestApp;
  let members: Member[];
  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false, clock: fixedClock(new Date(`${addDays(DAY, 1)}T01:00:00Z`)) });
    members = buildTree(USERS, DEPTH, principalOf);
    await insertTree(t.ctx.db, members, '2026-11-02');
  }, 300_000);
  afterAll(async () => {
    await t.close();
  });

  const token = (id: number) => createSession(t.ctx.db, BigInt(id), 30, 'test');

  it('has the depth asked for', () => {
    expect(Math.max(...members.map((m) => m.path.length))).toBeGreaterThanOrEqual(DEPTH);
  });

  it('pays rebates by generation with compression, exactly as the rules read', async () => {
    const report = await settleDay(t.ctx, DAY);
    expect(report.status).toBe('done');
    expect(report.rebates).toBeGreaterThan(1000);
    const staticRows = await t.ctx.db.selectFrom('income').select(['user_id', 'amount']).where('kind', '=', 'static').execute();
    const expected = expectedRebates(
      members,
      new Map(staticRows.map((r) => [r.user_id, r.amount])),
      t.ctx.config.team.levelThresholds.map((x) => BigInt(x) * UNIT),
      t.ctx.config.team.rebateRates,
    );
    const rows = await t.ctx.db.selectFrom('income').select(['user_id', 'amount', lineInputs('income').as('inputs')]).where('kind', '=', 'rebate').execute();
    const actual = new Map(
      rows.filter((r) => r.amount > 0n).map((r) => [`${r.user_id}|${(r.inputs as { earner: string }).earner}`, r.amount]),
    );
    expect(actual.size).toBe(expected.size);
    for (const [key, amount] of expected) expect(actual.get(key), key).toBe(amount);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('skips the empty position: user 51’s first generation is user 49, not 50', async () => {
    const rows = await t.ctx.db.selectFrom('income').select(['user_id', lineInputs('income').as('inputs')]).where('kind', '=', 'rebate').execute();
    const from51 = rows.filter((r) => (r.inputs as { earner: string }).earner === '51');
    const byGeneration = Object.fromEntries(from51.map((r) => [(r.inputs as { generation: number }).generation, String(r.user_id)]));
    expect(byGeneration[1]).toBe('49');
    expect(Object.values(byGeneration)).not.toContain('50');
  });

  it('unlocks 0%, 30%, 30%, 50% at 4,999 / 5,000 / 9,999 / 10,000 AIC held', async () => {
    const lockups = await t.ctx.db
      .selectFrom('lockups')
      .select(['user_id', 'unlock_percent', 'amount', 'unlockable'])
      .where('user_id', 'in', [49n, 48n, 47n, 46n])
      .orderBy('user_id', 'desc')
      .execute();
    expect(lockups.map((l) => l.unlock_percent)).toEqual(['0', '0.3', '0.3', '0.5']);
    for (const l of lockups) {
      const { numerator, denominator } = parseRate(l.unlock_percent);
      expect(l.unlockable).toBe((l.amount * numerator) / denominator);
    }
    const team = t.ctx.config.team;
    expect([4_999n, 5_000n, 9_999n, 10_000n].map((h) => unlockPercent(team, h * UNIT))).toEqual(['0', '0.3', '0.3', '0.5']);
  });

  it('pays rebates once when settlement runs twice', async () => {
    const before = await t.ctx.db.selectFrom('income').select((eb) => eb.fn.countAll().as('n')).where('kind', '=', 'rebate').executeTakeFirstOrThrow();
    await t.ctx.db.deleteFrom('settlement_days').where('day', '=', DAY).execute();
    await settleDay(t.ctx, DAY);
    const after = await t.ctx.db.selectFrom('income').select((eb) => eb.fn.countAll().as('n')).where('kind', '=', 'rebate').executeTakeFirstOrThrow();
    expect(after.n).toEqual(before.n);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
    expect(await incomeTotalsMismatched(t.ctx.db)).toBe(0);
  });

  it('shows levels, team figures and invite records', async () => {
    const info = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(await token(1)) })).json().data;
    const downline = members.slice(1).reduce((sum, m) => sum + m.principal, 0n);
    const level = t.ctx.config.team.levelThresholds.filter((x) => downline >= BigInt(x) * UNIT).length;
    const direct = members.filter((m) => m.inviter === 1n).length;
    expect(info).toMatchObject({ level, effective: true, directCount: direct, teamCount: USERS - 1 });
    expect(info.teamQuantity).toBe(formatUnits(downline));
    const lines = await t.ctx.db.selectFrom('income').select(['kind', 'amount']).where('user_id', '=', 1n).execute();
    const sum = (kind?: string) => lines.filter((l) => !kind || l.kind === kind).reduce((acc, l) => acc + l.amount, 0n);
    expect(sum('rebate')).toBeGreaterThan(0n);
    expect(info.earnings).toMatchObject({ cumulative: formatUnits(sum()), static: formatUnits(sum('static')), dynamic: formatUnits(sum('rebate')) });
    // The member with the most direct invitees, paged three at a time.
    const directs = new Map<bigint, Member[]>();
    for (const m of members) if (m.inviter) directs.set(m.inviter, [...(directs.get(m.inviter) ?? []), m]);
    const [busiest, children] = [...directs].sort((a, b) => b[1].length - a[1].length)[0] as [bigint, Member[]];
    const viewer = bearer(await token(Number(busiest)));
    const seen: { userId: string; subscription: string; teamQuantity: string }[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: typeof seen; nextCursor: string | null } = (
        await t.app.inject({ url: PATHS.inviteRecords, query: { limit: '3', ...(cursor ? { cursor } : {}) }, headers: viewer })
      ).json().data;
      seen.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.map((r) => r.userId).sort()).toEqual(children.map((c) => String(c.id)).sort());
    for (const child of children) {
      const branch = members.filter((m) => m.id === child.id || m.path.includes(child.id));
      const record = seen.find((r) => r.userId === String(child.id));
      expect(record?.subscription).toBe(formatUnits(child.principal));
      expect(record?.teamQuantity).toBe(formatUnits(branch.reduce((sum, m) => sum + m.principal, 0n)));
    }
  });

  it('answers each holder’s My screen the same whether asked alone or together with others', async () => {
    const headers = await Promise.all([1, 2, 46, 49, 51, 777, 9_999].map(async (id) => bearer(await token(id))));
    const ask = (h: Record<string, string>) => t.app.inject({ url: PATHS.userInfo, headers: h }).then((r) => r.json());
    const alone = [];
    for (const h of headers) alone.push(await ask(h));
    expect(await Promise.all(headers.map(ask))).toEqual(alone);
    expect(new Set(alone.map((a) => a.data.userId)).size).toBe(headers.length);
  });

  it('answers invite records, lock-ups and whose code it is the same alone or asked together, a refused ask failing none of the others', async () => {
    const ids = [1, 2, 46, 49, 777];
    // Their invitees bound on a day before the settled one (the tree has no bind times), put back after.
    const invitees = t.ctx.db.updateTable('users').where('inviter_id', 'in', ids.map(BigInt));
    await invitees.set({ bound_at: new Date(`${addDays(DAY, -5)}T00:00:00Z`) }).execute();
    try {
      const headers = await Promise.all(ids.map(async (id) => bearer(await token(id))));
      const asks: { url: string; query: Record<string, string>; headers: Record<string, string> }[] = [];
      for (const [i, h] of headers.entries()) {
        const other = `t${ids[(i + 1) % ids.length]} `;
        const records: Record<string, string>[] = [
          { limit: '3' },
          { limit: '3', cursor: '9999999999999999999' },
          { limit: '100', from: '0001-01-01T00:00:00Z', to: '9999-12-31T00:00:00Z' },
          { from: `${DAY}T00:00:00Z` },
          { to: `${DAY}T00:00:00Z` },
          { to: '2024-06-30T23:59:60Z' },
          { from: '0000-01-01T00:00:00Z' },
        ];
        for (const query of records) asks.push({ url: PATHS.inviteRecords, query, headers: h });
        const logs: Record<string, string>[] = [{}, { limit: '1' }, { cursor: addDays(DAY, 1) }, { cursor: DAY }, { cursor: '0000-01-01' }];
        for (const query of logs) asks.push({ url: PATHS.zeroLog, query, headers: h });
        for (const code of [other, `T${ids[i]}`, 'ZZZZ2222', 'null', 'A"B\\C,{}', 'T1\u0000']) asks.push({ url: PATHS.inviter, query: { code }, headers: h });
      }
      const ask = (a: (typeof asks)[number]) => t.app.inject(a).then((r) => ({ status: r.statusCode, body: r.json() }));
      const alone: Awaited<ReturnType<typeof ask>>[] = [];
      for (const a of asks) alone.push(await ask(a));
      expect(await Promise.all(asks.map(ask))).toEqual(alone);
      const answer = (url: string, id: number, query: Record<string, string>) =>
        alone[asks.findIndex((a) => a.url === url && a.headers === headers[ids.indexOf(id)] && JSON.stringify(a.query) === JSON.stringify(query))];
      // Each holder its own: the invitees are theirs, a cursor past the largest bigint reads from
      // the newest, and the widest window holds every invitee.
      for (const id of ids) {
        const first = answer(PATHS.inviteRecords, id, { limit: '3' });
        expect(first?.status).toBe(200);
        expect(answer(PATHS.inviteRecords, id, { limit: '3', cursor: '9999999999999999999' })).toEqual(first);
        const all = answer(PATHS.inviteRecords, id, { limit: '100', from: '0001-01-01T00:00:00Z', to: '9999-12-31T00:00:00Z' })?.body.data.items as { userId: string }[];
        const own = members.filter((m) => m.inviter === BigInt(id)).map((m) => String(m.id));
        expect(all.map((r) => r.userId).sort()).toEqual(own.sort());
        expect(answer(PATHS.inviteRecords, id, { from: `${DAY}T00:00:00Z` })?.body.data).toEqual({ items: [], nextCursor: null });
        expect(answer(PATHS.inviteRecords, id, { to: `${DAY}T00:00:00Z` })?.body.data.items.length).toBe(Math.min(own.length, 20));
        expect(answer(PATHS.inviteRecords, id, { to: '2024-06-30T23:59:60Z' })?.body.code).toBe(ERRORS.PARAM.code);
        expect(answer(PATHS.inviteRecords, id, { from: '0000-01-01T00:00:00Z' })?.body.code).toBe(ERRORS.PARAM.code);
        expect(answer(PATHS.zeroLog, id, { cursor: '0000-01-01' })?.body.code).toBe(ERRORS.PARAM.code);
        expect(answer(PATHS.inviter, id, { code: `T${id}` })?.body.code).toBe(ERRORS.INVITE_OWN.code);
        expect(answer(PATHS.inviter, id, { code: 'ZZZZ2222' })?.body.code).toBe(ERRORS.INVITE_UNKNOWN.code);
        expect(answer(PATHS.inviter, id, { code: 'null' })?.body.code).toBe(ERRORS.INVITE_MALFORMED.code);
        expect(answer(PATHS.inviter, id, { code: 'T1\u0000' })?.body.code).toBe(ERRORS.PARAM.code);
      }
      const next = ids[1] as number;
      expect(answer(PATHS.inviter, 1, { code: `t${next} ` })?.body.data).toEqual({ code: `T${next}`, name: `member ${next}`, maskedUserId: maskUserId(BigInt(next)) });
      const lockups = answer(PATHS.zeroLog, 46, {})?.body.data;
      expect(lockups.items.map((l: { day: string }) => l.day)).toEqual([DAY]);
      expect(answer(PATHS.zeroLog, 46, { cursor: addDays(DAY, 1) })?.body.data).toEqual(lockups);
      expect(answer(PATHS.zeroLog, 46, { cursor: DAY })?.body.data).toEqual({ items: [], nextCursor: null });
      // In one turn of the event loop, on the functions themselves: the refused asks fail alone.
      const together = await Promise.allSettled([
        inviteRecords(t.ctx.db, 1n, { limit: 3, cursor: '99999999999999999999' }),
        inviteRecords(t.ctx.db, 1n, { to: '2024-06-30T23:59:60Z' }),
        zeroLog(t.ctx.db, 46n, { cursor: '0000-02-29' }),
        zeroLog(t.ctx.db, 46n, {}),
        showInviter(t.ctx.db, 1n, 'T2\u0000'),
        showInviter(t.ctx.db, 1n, 'T2'),
      ]);
      expect(together.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
      expect(together[0]).toEqual({ status: 'fulfilled', value: answer(PATHS.inviteRecords, 1, { limit: '3' })?.body.data });
      expect(together[3]).toEqual({ status: 'fulfilled', value: lockups });
    } finally {
      await invitees.set({ bound_at: null }).execute();
    }
  });

  it('shows the rebates paid on each direct invitee’s branch, as the lines’ earners add up', async () => {
    const lines = await t.ctx.db
      .selectFrom('income')
      .select(['user_id', 'amount', lineInputs('income').as('inputs')])
      .where('kind', '=', 'rebate')
      .where('amount', '>', 0n)
      .execute();
    const byId = new Map(members.map((m) => [String(m.id), m]));
    // The receiver with the most rebate lines: its branches are the widest check.
    const counts = new Map<bigint, number>();
    for (const l of lines) counts.set(l.user_id, (counts.get(l.user_id) ?? 0) + 1);
    const [viewer] = [...counts].sort((a, b) => b[1] - a[1])[0] as [bigint, number];
    const children = members.filter((m) => m.inviter === viewer);
    const rebateFrom = (child: bigint) =>
      lines
        .filter((l) => l.user_id === viewer)
        .filter((l) => {
          const earner = byId.get((l.inputs as { earner: string }).earner);
          return earner !== undefined && (earner.id === child || earner.path.includes(child));
        })
        .reduce((sum, l) => sum + l.amount, 0n);
    const page: { items: { userId: string; rebate: string }[] } = (
      await t.app.inject({ url: PATHS.inviteRecords, query: { limit: '100' }, headers: bearer(await token(Number(viewer))) })
    ).json().data;
    expect(page.items.length).toBe(children.length);
    expect(children.some((c) => rebateFrom(c.id) > 0n)).toBe(true);
    for (const child of children) {
      expect(page.items.find((r) => r.userId === String(child.id))?.rebate, String(child.id)).toBe(formatUnits(rebateFrom(child.id)));
    }
  });

  it('releases the unlockable part on day 10 and lets it be claimed once', async () => {
    const holder = await token(46);
    const summary = (await t.app.inject({ url: PATHS.zeroProfit, headers: bearer(holder) })).json().data;
    expect(summary).toMatchObject({ claimable: '0', unlockPercent: '0.5', nextUnlockDay: addDays(DAY, 10) });
    // The one statement's figures, each as the tables say it alone.
    const balance = async (kind: 'locked_rewards' | 'network_rewards') =>
      (await t.ctx.db.selectFrom('accounts').select('balance').where('user_id', '=', 46n).where('asset', '=', 'AIC').where('kind', '=', kind).executeTakeFirst())?.balance ?? 0n;
    const open = await t.ctx.db.selectFrom('lockups').select(['unlockable', 'unlock_day']).where('user_id', '=', 46n).where('released_on', 'is', null).execute();
    const next = open.map((l) => String(l.unlock_day)).sort()[0];
    const orders = await t.ctx.db.selectFrom('orders').select(['principal', 'status']).where('user_id', '=', 46n).execute();
    const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);
    expect(open.length).toBeGreaterThan(0);
    expect(summary).toMatchObject({
      claimable: formatUnits(await balance('network_rewards')),
      locked: formatUnits(await balance('locked_rewards')),
      pendingUnlock: formatUnits(sum(open.map((l) => l.unlockable))),
      nextUnlockAmount: formatUnits(sum(open.filter((l) => String(l.unlock_day) === next).map((l) => l.unlockable))),
      held: formatUnits(sum(orders.filter((o) => (STATUS_GROUPS.held as readonly string[]).includes(o.status)).map((o) => o.principal))),
    });
    expect((await post(t.app, PATHS.receiveProfit, holder)).json().code).toBe(ERRORS.CLAIM_NONE.code);
    // The day before it comes (the days between change nothing of this lock-up; settling them all
    // cost a minute of the suite on two cores), settled once it has ended.
    t.ctx.clock.set(new Date(`${addDays(DAY, 10)}T01:00:00Z`));
    await settleDay(t.ctx, addDays(DAY, 9));
    const lockup = await t.ctx.db.selectFrom('lockups').selectAll().where('user_id', '=', 46n).where('day', '=', DAY).executeTakeFirstOrThrow();
    expect(lockup.released_on).toBeNull();
    t.ctx.clock.set(new Date(`${addDays(DAY, 11)}T01:00:00Z`));
    await settleDay(t.ctx, addDays(DAY, 10));
    const released = await t.ctx.db.selectFrom('lockups').selectAll().where('user_id', '=', 46n).where('day', '=', DAY).executeTakeFirstOrThrow();
    expect(released.released_on).toBe(addDays(DAY, 10));
    const claim = await post(t.app, PATHS.receiveProfit, await token(46));
    expect(claim.json().code).toBe(0);
    expect(units(claim.json().data.claimed)).toBeGreaterThanOrEqual(released.unlockable);
    // The holder's record of the claim, read: they made it.
    const notices = (await t.app.inject({ url: PATHS.notifications, headers: bearer(await token(46)) })).json().data.items;
    expect(notices[0]).toMatchObject({ kind: 'claimed', params: { amount: claim.json().data.claimed, what: 'network' }, read: true });
    expect((await post(t.app, PATHS.receiveProfit, await token(46))).json().code).toBe(ERRORS.CLAIM_NONE.code);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  }, 300_000);
});
