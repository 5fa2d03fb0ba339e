import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notice } from '../../contract/notifications.ts';
import { PATHS } from '../../contract/paths.ts';
import { DAY_MS } from '../platform/clock.ts';
import { settleDay } from '../settlement/settle.ts';
import { DATABASES, type TestApp } from '../test/harness.ts';
import { bearer, newKey, post, type SignedIn, startWithPeople } from '../test/signIn.ts';

type Page = { items: Notice[]; nextCursor: string | null; unread: number };

/** Scenario: the clock frozen at 2026-11-01 08:00 UTC, moved by hand; exact amounts. */
describe.each(DATABASES)('notifications on %s', (kind) => {
  let t: TestApp;
  let operator: SignedIn;
  let hana: SignedIn;
  let ivo: SignedIn;
  beforeAll(async () => {
    let people: SignedIn[];
    ({ t, people } = await startWithPeople(kind, '2026-11-01T08:00:00Z', ['Olga', 'Hana', 'Ivo']));
    [operator, hana, ivo] = people as [SignedIn, SignedIn, SignedIn];
  });
  afterAll(async () => {
    await t.close();
  });

  const page = async (user: SignedIn, query: Record<string, string> = {}): Promise<Page> => {
    const res = await t.app.inject({ url: PATHS.notifications, query, headers: bearer(user.token) });
    expect(res.json().code, res.body).toBe(0);
    return res.json().data;
  };
  const unread = async (user: SignedIn) =>
    (await t.app.inject({ url: PATHS.notificationsUnread, headers: bearer(user.token) })).json().data.unread as number;
  const incomeNotices = async (user: SignedIn) => (await page(user, { limit: '50' })).items.filter((n) => n.kind === 'income');

  it('tells the inviter a new member bound their code', async () => {
    const code = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(operator.token) })).json().data.inviteCode;
    expect((await post(t.app, PATHS.bindInviter, hana.token, { inviteCode: code })).json().code).toBe(0);
    const notices = await page(operator);
    expect(notices.items).toEqual([expect.objectContaining({ kind: 'member_bound', params: { member: 'Hana' }, read: false })]);
    expect(notices.unread).toBe(1);
  });

  it('writes one income notice per holder for a settled day, with the day total, and none twice', async () => {
    expect((await post(t.app, PATHS.transferIn, hana.token, { asset: 'AIC', amount: '3000' })).json().code).toBe(0);
    // Two 30-day orders of the same holder: one notice for the day, the total of both lines.
    for (const amount of ['1000', '500']) {
      expect((await post(t.app, PATHS.productBuy, hana.token, { product: 'fixed30', amount })).json().code).toBe(0);
    }
    t.ctx.clock.advance(2 * DAY_MS);
    expect((await settleDay(t.ctx, '2026-11-01')).status).toBe('done');
    expect((await settleDay(t.ctx, '2026-11-02')).status).toBe('done');
    await Promise.all([settleDay(t.ctx, '2026-11-02'), settleDay(t.ctx, '2026-11-02')]);
    // 1,500 AIC at 0.3% a day from the day after the buy: 4.5 AIC on 11-02.
    expect((await incomeNotices(hana)).map((n) => n.params)).toEqual([{ day: '2026-11-02', total: '4.5' }]);
    // Ivo earned nothing: no notice.
    expect(await incomeNotices(ivo)).toEqual([]);
    // The day is told once, by its notice id: no row per holder.
    const days = await t.ctx.db.selectFrom('settlement_days').select(['day', 'notice_id']).orderBy('day').execute();
    expect(days.map((d) => d.notice_id !== null)).toEqual([true, true]);
    const rows = await t.ctx.db.selectFrom('notifications').select('id').where('kind', '=', 'income').execute();
    expect(rows).toEqual([]);
  });

  it('tells the holder when a withdrawal is approved and when one is rejected, with the reason', async () => {
    const first = (await post(t.app, PATHS.withdraw, hana.token, { asset: 'AIC', amount: '10' })).json().data;
    const second = (await post(t.app, PATHS.withdraw, hana.token, { asset: 'AIC', amount: '20' })).json().data;
    expect((await post(t.app, PATHS.operatorApprove.replace(':id', first.id), operator.token, {})).json().code).toBe(0);
    const reject = await post(t.app, PATHS.operatorReject.replace(':id', second.id), operator.token, { reason: 'address check' });
    expect(reject.json().code).toBe(0);
    const items = (await page(hana)).items;
    expect(items[0]).toMatchObject({ kind: 'transfer_rejected', params: { id: second.id, type: 'withdraw', asset: 'AIC', amount: '20', reason: 'address check' } });
    expect(items[1]).toMatchObject({ kind: 'transfer_approved', params: { id: first.id, type: 'withdraw', asset: 'AIC', amount: '10' } });
  });

  it('counts unread, marks one and then all read, and pages newest first', async () => {
    // Counts asked in one moment go as one statement: each holder still gets their own.
    expect(await Promise.all([unread(hana), unread(operator), unread(ivo), unread(hana)])).toEqual([3, 1, 0, 3]);
    const before = await page(hana, { limit: '2' });
    expect(before.unread).toBe(3);
    expect(before.items).toHaveLength(2);
    expect(before.nextCursor).toBe(before.items[1]?.id);
    const rest = await page(hana, { cursor: before.nextCursor ?? '' });
    expect(rest).toMatchObject({ nextCursor: null });
    // Hana's own moves are in the list for the record, read from the start: no badge for them.
    expect(rest.items.map((n) => [n.kind, n.read])).toEqual([
      ['income', false],
      ['subscribed', true],
      ['subscribed', true],
      ['money_in', true],
    ]);
    expect(rest.items.slice(1).map((n) => n.params)).toEqual([
      { order: expect.any(String), product: 'fixed30', amount: '500' },
      { order: expect.any(String), product: 'fixed30', amount: '1000' },
      { id: expect.any(String), type: 'transfer_in', asset: 'AIC', amount: '3000' },
    ]);

    const one = await post(t.app, PATHS.notificationsRead, hana.token, { id: before.items[0]?.id });
    expect(one.json().data).toEqual({ marked: 1, unread: 2 });
    expect((await post(t.app, PATHS.notificationsRead, hana.token, { id: before.items[0]?.id })).json().data).toEqual({ marked: 0, unread: 2 });
    const all = await post(t.app, PATHS.notificationsRead, hana.token, { all: true }, newKey());
    expect(all.json().data).toEqual({ marked: 2, unread: 0 });
    expect(await unread(hana)).toBe(0);
    expect((await page(hana)).items.every((n) => n.read)).toBe(true);
  });

  it("refuses another holder's notice id like an unknown one, and changes nothing", async () => {
    const theirs = (await page(operator)).items[0]?.id ?? '';
    const foreign = await post(t.app, PATHS.notificationsRead, hana.token, { id: theirs });
    const unknown = await post(t.app, PATHS.notificationsRead, hana.token, { id: '999999999' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe(unknown.json().code);
    expect(await unread(operator)).toBe(1);
    const bad = await post(t.app, PATHS.notificationsRead, hana.token, { id: theirs, all: true });
    expect(bad.statusCode).toBe(400);
  });

  it("marks a day's income notice read alone; a later day's is unread; another holder's day is unknown to Ivo", async () => {
    t.ctx.clock.advance(DAY_MS);
    expect((await settleDay(t.ctx, '2026-11-03')).status).toBe('done');
    const [newest, older] = await incomeNotices(hana);
    expect(newest).toMatchObject({ params: { day: '2026-11-03', total: '4.5' }, read: false });
    expect(older).toMatchObject({ params: { day: '2026-11-02' }, read: true });
    expect(await unread(hana)).toBe(1);
    const id = newest?.id ?? '';
    expect((await post(t.app, PATHS.notificationsRead, hana.token, { id })).json().data).toEqual({ marked: 1, unread: 0 });
    expect((await post(t.app, PATHS.notificationsRead, hana.token, { id })).json().data).toEqual({ marked: 0, unread: 0 });
    expect((await incomeNotices(hana)).map((n) => [n.id, n.params.day, n.read])).toEqual([
      [id, '2026-11-03', true],
      [older?.id, '2026-11-02', true],
    ]);
    // Ivo was credited nothing that day: the day's notice id is not his.
    const foreign = await post(t.app, PATHS.notificationsRead, ivo.token, { id });
    expect(foreign.statusCode).toBe(404);
    expect(await incomeNotices(ivo)).toEqual([]);
  });
});
