import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { PATHS } from '../../contract/paths.ts';
import { checkLedger } from '../ledger/ledger.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, newKey, post, signIn } from '../test/signIn.ts';

type User = { token: string; userId: string };
type QueueItem = { id: string; userId: string; status: string };
type QueuePage = { items: QueueItem[]; nextCursor: string | null };

describe.each(DATABASES)('maker-checker and the review queue on %s', (kind) => {
  let t: TestApp;
  let a: User;
  let b: User;
  beforeAll(async () => {
    t = await startTestApp(kind);
    a = await signIn(t.app, { name: 'Operator A' });
    b = await signIn(t.app, { name: 'Operator B' });
    t.ctx.config.operatorUserIds = [BigInt(a.userId), BigInt(b.userId)];
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (user: User, url: string, query: Record<string, string> = {}) =>
    t.app.inject({ url, query, headers: bearer(user.token) });
  /** The platform's own figures (the exchange's come from a copy that fills in apart, wallet/exchangeBalances.ts). */
  const balances = async (user: User) =>
    (await get(user, PATHS.getAsset)).json().data.balances.map(({ asset, available, pending }: Record<string, string>) => ({ asset, available, pending }));
  const auditTargets = async () =>
    (await get(b, PATHS.operatorAudit)).json().data.items.map((i: { target: string | null }) => i.target);
  const queue = async (user: User, query: Record<string, string> = {}): Promise<QueuePage> => {
    const res = await get(user, PATHS.operatorReviews, query);
    expect(res.json().code, res.body).toBe(0);
    return res.json().data;
  };
  /** Every page of the queue by cursor, the ids in the order they came. */
  const walk = async (query: Record<string, string>): Promise<{ ids: string[]; pages: number; items: QueueItem[] }> => {
    const items: QueueItem[] = [];
    let pages = 0;
    let after: string | null = null;
    do {
      const page: QueuePage = await queue(a, { ...query, ...(after ? { after } : {}) });
      items.push(...page.items);
      pages++;
      after = page.nextCursor;
    } while (after && pages < 50);
    return { ids: items.map((i) => i.id), pages, items };
  };

  it('refuses an operator approving or rejecting their own withdrawal; another operator approves it', async () => {
    expect((await post(t.app, PATHS.transferIn, a.token, { asset: 'AIC', amount: '100' })).json().code).toBe(0);
    const record = (await post(t.app, PATHS.withdraw, a.token, { asset: 'AIC', amount: '40' })).json().data;
    expect(record).toMatchObject({ status: 'under_review' });
    const before = await balances(a);
    const approve = PATHS.operatorApprove.replace(':id', record.id);
    const reject = PATHS.operatorReject.replace(':id', record.id);

    const approveKey = newKey();
    const ownApprove = await post(t.app, approve, a.token, {}, approveKey);
    expect(ownApprove.statusCode).toBe(403);
    expect(ownApprove.json()).toMatchObject({ code: ERRORS.OWN_REQUEST.code, data: null });
    expect(ownApprove.json().msg).not.toBe('');
    const ownReject = await post(t.app, reject, a.token, { reason: 'mine' });
    expect(ownReject.json()).toMatchObject({ code: ERRORS.OWN_REQUEST.code, data: null });

    // Nothing changed: the balances, the request, the audit log.
    expect(await balances(a)).toEqual(before);
    expect((await queue(b)).items.map((i) => i.id)).toContain(record.id);
    expect(await auditTargets()).not.toContain(`transfer:${record.id}`);

    // Another operator approves it.
    const approved = await post(t.app, approve, b.token);
    expect(approved.json()).toMatchObject({ code: 0, data: { id: record.id, status: 'success' } });
    expect((await balances(a)).find((x: { asset: string }) => x.asset === 'AIC')).toMatchObject({ available: '60', pending: '0' });
    const entries = (await get(b, PATHS.operatorAudit)).json().data.items.filter(
      (i: { target: string | null }) => i.target === `transfer:${record.id}`,
    );
    expect(entries).toEqual([expect.objectContaining({ operatorId: b.userId, action: 'approve' })]);

    // The refusal was stored with its key: a repeat gets the same refusal, not a new review.
    const repeat = await post(t.app, approve, a.token, {}, approveKey);
    expect(repeat.json()).toEqual(ownApprove.json());
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('refuses the other way round too: B cannot review B’s own transfer out, A can reject it', async () => {
    expect((await post(t.app, PATHS.transferIn, b.token, { asset: 'USDT', amount: '10' })).json().code).toBe(0);
    const record = (await post(t.app, PATHS.transferOut, b.token, { asset: 'USDT', amount: '5' })).json().data;
    for (const path of [PATHS.operatorApprove, PATHS.operatorReject]) {
      expect((await post(t.app, path.replace(':id', record.id), b.token, { reason: 'x' })).json().code).toBe(
        ERRORS.OWN_REQUEST.code,
      );
    }
    const rejected = await post(t.app, PATHS.operatorReject.replace(':id', record.id), a.token, { reason: 'check' });
    expect(rejected.json()).toMatchObject({ code: 0, data: { status: 'failure', reason: 'check' } });
    expect((await balances(b)).find((x: { asset: string }) => x.asset === 'USDT')).toMatchObject({ available: '10', pending: '0' });
  });

  it('pages through the queue oldest first by cursor, each id exactly once, and filters by holder', async () => {
    const h1 = await signIn(t.app, { name: 'Holder One' });
    const h2 = await signIn(t.app, { name: 'Holder Two' });
    for (const h of [h1, h2]) await post(t.app, PATHS.transferIn, h.token, { asset: 'AIC', amount: '1000' });
    const created: { id: string; userId: string }[] = [];
    for (let i = 0; i < 105; i++) {
      const h = i % 3 === 0 ? h2 : h1;
      const type = i % 2 === 0 ? PATHS.withdraw : PATHS.transferOut;
      const res = await post(t.app, type, h.token, { asset: 'AIC', amount: String(1 + (i % 5)) });
      expect(res.json().code, res.body).toBe(0);
      created.push({ id: res.json().data.id, userId: h.userId });
    }
    const pending = new Set(created.map((c) => c.id));
    const mine = (ids: string[]) => ids.filter((id) => pending.has(id));
    const ascending = (ids: string[]) => ids.every((id, i) => i === 0 || BigInt(ids[i - 1] as string) < BigInt(id));

    // Without a limit: the 100 oldest (what the call answered before it had a cursor), then the rest.
    const first = await queue(a);
    expect(first.items.map((i) => i.id)).toEqual(created.slice(0, 100).map((c) => c.id));
    expect(first.nextCursor).toBe(created[99]?.id);
    const second = await queue(a, { after: String(first.nextCursor) });
    expect(second).toEqual({ items: expect.any(Array), nextCursor: null });
    expect(second.items.map((i) => i.id)).toEqual(created.slice(100).map((c) => c.id));

    // Pages of 5: every id once, in order, more than one page.
    const paged = await walk({ limit: '5' });
    expect(paged.pages).toBe(21);
    expect(new Set(paged.ids).size).toBe(paged.ids.length);
    expect(ascending(paged.ids)).toBe(true);
    expect(mine(paged.ids)).toEqual(created.map((c) => c.id));
    expect(paged.ids).toEqual(created.map((c) => c.id));

    // One holder's, paged: only theirs, all of them.
    for (const h of [h1, h2]) {
      const theirs = await walk({ userId: h.userId, limit: '4' });
      expect(theirs.items.every((i) => i.userId === h.userId && i.status === 'under_review')).toBe(true);
      expect(theirs.ids).toEqual(created.filter((c) => c.userId === h.userId).map((c) => c.id));
    }
    // A holder with nothing under review, and a cursor past the end.
    expect(await queue(a, { userId: '999999' })).toEqual({ items: [], nextCursor: null });
    expect((await queue(a, { after: created.at(-1)?.id ?? '0' })).items).toEqual([]);

    // A reviewed request leaves the queue; the next page starts after the cursor even so.
    const page = await queue(a, { userId: h1.userId, limit: '2' });
    const [firstId] = page.items.map((i) => i.id);
    await post(t.app, PATHS.operatorApprove.replace(':id', String(firstId)), a.token);
    const next = await queue(a, { userId: h1.userId, limit: '2', after: String(page.nextCursor) });
    expect(next.items.every((i) => BigInt(i.id) > BigInt(String(page.nextCursor)))).toBe(true);
    expect(mine((await walk({ userId: h1.userId })).ids)).not.toContain(firstId);
  });

  it.each([
    [{ after: 'abc' }],
    [{ after: '-1' }],
    [{ after: '1.5' }],
    [{ after: '99999999999999999999' }],
    [{ after: '9999999999999999999' }],
    [{ userId: 'me' }],
    [{ userId: '9223372036854775808' }],
    [{ userId: "1' OR '1'='1" }],
    [{ limit: '0' }],
    [{ limit: '101' }],
    [{ limit: 'many' }],
  ])('refuses the queue query %j with 400 (PARAM), never 500', async (query) => {
    const res = await get(a, PATHS.operatorReviews, query);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: ERRORS.PARAM.code, data: null });
  });

  it('shows the queue to operators only', async () => {
    const holder = await signIn(t.app, { name: 'Not an operator' });
    const res = await get(holder, PATHS.operatorReviews, { userId: holder.userId });
    expect(res.json().code).toBe(ERRORS.FORBIDDEN.code);
  });
});
