import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAmount } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { type MonthlyData, type Movement, STATEMENT_COLUMNS, STATEMENT_TYPES } from '../../contract/statement.ts';
import { createSession } from '../auth/sessions.ts';
import { loadConfig } from '../config.ts';
import { EARNINGS_KIND } from '../ledger/balances.ts';
import { checkLedger } from '../ledger/ledger.ts';
import { DAY_MS, fixedClock } from '../platform/clock.ts';
import { settleDue } from '../settlement/settle.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, post, signIn } from '../test/signIn.ts';
import { parseCsv } from './parseCsv.ts';
import { holderMonths } from './repository.ts';
import { KNOWN_ENTRY_KINDS, statementType } from './types.ts';

/** A decimal string of the statement as exact units ("-12.50000000" → -1250000000n). */
const unitsOf = (text: string): bigint => {
  const negative = text.startsWith('-');
  const parsed = parseAmount(negative ? text.slice(1) : text);
  if (!parsed.ok) throw new Error(`not an amount: ${text}`);
  return negative ? -parsed.value : parsed.value;
};

type Row = Record<(typeof STATEMENT_COLUMNS)[number], string>;

const START = new Date('2026-11-27T08:00:00Z');

/**
 * Scenario from 27 November into December: wallet moves (recharge, transfers, a withdrawal
 * approved, one rejected), the three products, settlement days, a claim, a redemption, rebates
 * unlocked and claimed. Then each holder's CSV and monthly statements must agree with the books.
 */
describe.each(DATABASES)('statements on %s', (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, bigint> = {};

  const names = ['top', 'root', 'alice', 'bob'];
  async function signInAll() {
    for (const name of names) {
      if (ids[name] === undefined) {
        const session = await signIn(t.app, { name });
        ids[name] = BigInt(session.userId);
        tokens[name] = session.token;
      } else {
        tokens[name] = await createSession(t.ctx.db, ids[name], 30, 'test');
      }
    }
  }
  const call = async (who: string, path: string, body: object = {}) => {
    const response = await post(t.app, path, tokens[who] as string, body);
    expect(response.json(), `${who} ${path}`).toMatchObject({ code: 0 });
    return response.json().data;
  };
  const info = async (who: string) =>
    (await t.app.inject({ url: PATHS.userInfo, headers: bearer(tokens[who] as string) })).json().data;
  const advanceDays = async (days: number) => {
    t.ctx.clock.advance(days * DAY_MS);
    await signInAll();
    await settleDue(t.ctx);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  };

  async function csvOf(who: string): Promise<{ header: string[]; rows: Row[]; raw: string; headers: Record<string, unknown> }> {
    const response = await t.app.inject({ url: PATHS.statementCsv, headers: bearer(tokens[who] as string) });
    expect(response.statusCode).toBe(200);
    const [header = [], ...lines] = parseCsv(response.body);
    const rows = lines.map((fields) => Object.fromEntries(header.map((name, i) => [name, fields[i] ?? ''])) as Row);
    return { header, rows, raw: response.body, headers: response.headers };
  }

  async function monthly(who: string, month: string, limit = 7): Promise<{ data: MonthlyData; movements: Movement[] }> {
    const movements: Movement[] = [];
    let cursor: string | undefined;
    let data: MonthlyData | undefined;
    for (let page = 0; page < 100; page++) {
      const response = await t.app.inject({
        url: PATHS.statementMonthly,
        query: { month, limit: String(limit), ...(cursor ? { cursor } : {}) },
        headers: bearer(tokens[who] as string),
      });
      expect(response.json().code, response.body).toBe(0);
      data = response.json().data as MonthlyData;
      movements.push(...data.movements);
      if (!data.nextCursor) break;
      cursor = data.nextCursor;
    }
    return { data: data as MonthlyData, movements };
  }

  async function balances(userId: bigint): Promise<Map<string, bigint>> {
    const rows = await t.ctx.db.selectFrom('accounts').select(['asset', 'kind', 'balance']).where('user_id', '=', userId).execute();
    return new Map(rows.filter((r) => r.balance !== 0n).map((r) => [`${r.asset}|${r.kind}`, r.balance]));
  }

  beforeAll(async () => {
    t = await startTestApp(kind, {
      clock: fixedClock(START),
      config: { operatorUserIds: [1n], team: { ...loadConfig({}).team, lockupDays: 2 } },
    });
    await signInAll();
    expect(ids.top).toBe(1n);

    await call('alice', PATHS.recharge, { asset: 'AIC', amount: '3000' });
    await call('alice', PATHS.transferIn, { asset: 'USDT', amount: '100.5' });
    await call('alice', PATHS.transferOut, { asset: 'USDT', amount: '30.25' });
    await call('alice', PATHS.withdraw, { asset: 'AIC', amount: '50' });
    const pending = (
      await t.app.inject({ url: PATHS.transferRecords, headers: bearer(tokens.alice as string) })
    ).json().data.items as { id: string; type: string; status: string }[];
    const out = pending.find((r) => r.type === 'transfer_out');
    const withdrawal = pending.find((r) => r.type === 'withdraw');
    await call('top', PATHS.operatorApprove.replace(':id', String(out?.id)));
    await call('top', PATHS.operatorReject.replace(':id', String(withdrawal?.id)), { reason: 'check, "quoted"' });

    // root holds 6,000 AIC in orders (effective; from 5,000 held, 30% of its rebates unlock) and
    // its team 1,010 (level V1): it earns rebates on alice's 360-day output.
    await call('root', PATHS.transferIn, { asset: 'AIC', amount: '6000' });
    await call('root', PATHS.bindInviter, { inviteCode: (await info('top')).inviteCode });
    await call('alice', PATHS.bindInviter, { inviteCode: (await info('root')).inviteCode });
    await call('bob', PATHS.bindInviter, { inviteCode: (await info('root')).inviteCode });
    await call('bob', PATHS.transferIn, { asset: 'AIC', amount: '20' });
    await call('bob', PATHS.productBuy, { product: 'current', amount: '10' });
    await call('root', PATHS.productBuy, { product: 'fixed30', amount: '6000' });
    await call('alice', PATHS.productBuy, { product: 'current', amount: '500' });
    await call('alice', PATHS.productBuy, { product: 'fixed30', amount: '300' });
    const long = await call('alice', PATHS.productBuy, { product: 'reinvest360', amount: '200' });
    expect(long.reinvest).toBe(false);

    await advanceDays(3); // 30 November: settled to the 29th
    await call('alice', PATHS.receive);
    await advanceDays(4); // 4 December
    const current = (
      await t.app.inject({ url: PATHS.myProductList, headers: bearer(tokens.alice as string) })
    ).json().data.items as { id: string; product: string }[];
    await call('alice', PATHS.redeemCurrent, { orderId: current.find((o) => o.product === 'current')?.id });
    await call('alice', PATHS.receive);
    const network = (await t.app.inject({ url: PATHS.zeroProfit, headers: bearer(tokens.root as string) })).json().data;
    expect(unitsOf(network.claimable)).toBeGreaterThan(0n);
    await call('root', PATHS.receiveProfit);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('maps every entry kind the ledger posts to a statement type', async () => {
    const kinds = await t.ctx.db.selectFrom('journal_entries').select(['kind', 'ref']).distinct().execute();
    for (const { kind: entryKind, ref } of kinds) {
      expect(KNOWN_ENTRY_KINDS, entryKind).toContain(entryKind);
      expect(statementType(entryKind, ref)).not.toBe('other');
    }
    expect(statementType('settlement', 'settlement:2026-11-28:rebate')).toBe('rebate');
    expect(statementType('settlement', 'settlement:2026-11-28:static')).toBe('income');
    expect(statementType('term_end', 'settlement:2027-11-28:term_end')).toBe('maturity');
    expect(statementType('something_new', null)).toBe('other');
    // The month figures count a settlement's money as earnings by its kind alone (ledger/balances.ts).
    for (const entryKind of KNOWN_ENTRY_KINDS) {
      const earns = ['income', 'rebate'].includes(statementType(entryKind, `settlement:2026-11-28:${entryKind}`));
      expect(earns, entryKind).toBe(entryKind === EARNINGS_KIND);
    }
  });

  it('exports each holder’s whole history: documented columns, running balances, sums equal to the books', async () => {
    for (const who of names) {
      const { header, rows, headers } = await csvOf(who);
      expect(header).toEqual([...STATEMENT_COLUMNS]);
      expect(headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(headers['content-disposition']).toMatch(
        new RegExp(`^attachment; filename="aic-statement-${ids[who]}-2026-12-04\\.csv"$`),
      );
      // The operator moved no money through the platform: the demo balances are the exchange's, not the books'.
      if (who === 'top') expect(rows).toEqual([]);
      else expect(rows.length).toBeGreaterThan(0);

      const running = new Map<string, bigint>();
      let lastEntry = 0n;
      for (const row of rows) {
        expect(row.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(row.amount).toMatch(/^-?\d+\.\d{8}$/);
        expect(row.balance_after).toMatch(/^-?\d+\.\d{8}$/);
        expect(STATEMENT_TYPES).toContain(row.type);
        expect(row.type).not.toBe('other');
        expect(BigInt(row.entry_id) >= lastEntry).toBe(true);
        lastEntry = BigInt(row.entry_id);
        const key = `${row.asset}|${row.account}`;
        const next = (running.get(key) ?? 0n) + unitsOf(row.amount);
        running.set(key, next);
        expect(unitsOf(row.balance_after), `${who} ${row.entry_id} ${key}`).toBe(next);
      }
      const books = await balances(ids[who] as bigint);
      const nonZero = new Map([...running].filter(([, v]) => v !== 0n));
      expect(nonZero).toEqual(books);
      const count = await t.ctx.db
        .selectFrom('ledger_postings')
        .select((eb) => eb.fn.countAll<bigint>().as('n'))
        .where('user_id', '=', ids[who] as bigint)
        .executeTakeFirstOrThrow();
      expect(rows.length).toBe(Number(count.n));
    }
  });

  it('dates movements by the app’s clock and names them', async () => {
    const { rows } = await csvOf('alice');
    const recharge = rows.find((r) => r.type === 'recharge' && r.account === 'wallet');
    expect(recharge).toMatchObject({ time: START.toISOString(), account: 'wallet', asset: 'AIC', amount: '3000.00000000' });
    expect(recharge?.reference).toMatch(/^transfer:\d+$/);
    const types = new Set(rows.map((r) => r.type));
    for (const type of ['recharge', 'transfer', 'withdrawal', 'withdrawal_returned', 'subscription', 'income', 'claim', 'redemption']) {
      expect(types, type).toContain(type);
    }
    const rootTypes = new Set((await csvOf('root')).rows.map((r) => r.type));
    expect(rootTypes).toContain('rebate');
    expect(rootTypes).toContain('unlock');
    const income = rows.find((r) => r.type === 'income');
    expect(income?.reference).toMatch(/^settlement:2026-11-\d\d:(current|fixed|static)$/);
  });

  it('documents the CSV columns in the API docs', async () => {
    const doc = (await t.app.inject({ url: '/docs/json' })).json();
    const operation = doc.paths['/api/statement.csv'].get;
    expect(operation.responses['200'].content['text/csv']).toBeDefined();
    for (const column of STATEMENT_COLUMNS) expect(operation.description).toContain(`\`${column}\``);
    expect(doc.paths['/api/statement/monthly'].get.responses['200']).toBeDefined();
  });

  it('quotes fields as RFC 4180 asks', async () => {
    const { raw } = await csvOf('alice');
    expect(raw.startsWith(`${STATEMENT_COLUMNS.join(',')}\r\n`)).toBe(true);
    expect(raw.endsWith('\r\n')).toBe(true);
  });

  it('makes opening + movements = closing each month, matching the CSV', async () => {
    for (const who of names) {
      const { rows } = await csvOf(who);
      const november = await monthly(who, '2026-11');
      const december = await monthly(who, '2026-12');
      for (const [{ data, movements }, from, to] of [
        [november, '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
        [december, '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
      ] as const) {
        expect(data).toMatchObject({ from, to });
        const inMonth = rows.filter((r) => r.time >= from && r.time < to);
        expect(movements.map((m) => [m.entryId, m.asset, m.account, unitsOf(m.amount), unitsOf(m.balanceAfter), m.type, m.time, m.flow])).toEqual(
          inMonth.map((r) => [r.entry_id, r.asset, r.account, unitsOf(r.amount), unitsOf(r.balance_after), r.type, r.time, r.flow]),
        );
        for (const asset of data.assets) {
          const moved = movements.filter((m) => m.asset === asset.asset).reduce((sum, m) => sum + unitsOf(m.amount), 0n);
          expect(unitsOf(asset.opening) + moved).toBe(unitsOf(asset.closing));
          expect(unitsOf(asset.moneyIn) + unitsOf(asset.earnings) + unitsOf(asset.moneyOut)).toBe(moved);
          // Each flow is the sum of its movements: what the CSV's flow column adds up to.
          const flowSum = (flow: string) =>
            movements.filter((m) => m.asset === asset.asset && m.flow === flow).reduce((sum, m) => sum + unitsOf(m.amount), 0n);
          expect([flowSum('in'), flowSum('earnings'), flowSum('out'), flowSum('internal')]).toEqual([
            unitsOf(asset.moneyIn),
            unitsOf(asset.earnings),
            unitsOf(asset.moneyOut),
            0n,
          ]);
          for (const account of asset.accounts) {
            const own = movements.filter((m) => m.asset === asset.asset && m.account === account.account);
            const sum = own.reduce((s, m) => s + unitsOf(m.amount), 0n);
            expect(unitsOf(account.opening) + sum).toBe(unitsOf(account.closing));
            const last = own.at(-1);
            if (last) expect(unitsOf(last.balanceAfter)).toBe(unitsOf(account.closing));
          }
        }
      }
      // November's closing is December's opening; December closes on today's books.
      const closing = new Map(november.data.assets.map((a) => [a.asset, a.closing]));
      for (const asset of december.data.assets) expect(unitsOf(asset.opening)).toBe(unitsOf(closing.get(asset.asset) ?? '0'));
      const books = await balances(ids[who] as bigint);
      for (const asset of december.data.assets) {
        for (const account of asset.accounts) {
          expect(unitsOf(account.closing)).toBe(books.get(`${asset.asset}|${account.account}`) ?? 0n);
        }
      }
    }
    const aliceNovember = await monthly('alice', '2026-11');
    expect(aliceNovember.data.assets.map((a) => a.asset)).toEqual(['AIC', 'USDT']);
    expect(aliceNovember.data.assets[0]?.opening).toBe('0');
  });

  it('filters by asset, defaults to the current month, and refuses a bad month or cursor', async () => {
    const usdt = await monthly('alice', '2026-11');
    const only = (
      await t.app.inject({ url: PATHS.statementMonthly, query: { month: '2026-11', asset: 'USDT' }, headers: bearer(tokens.alice as string) })
    ).json().data as MonthlyData;
    expect(only.assets).toEqual(usdt.data.assets.filter((a) => a.asset === 'USDT'));
    expect(only.movements.every((m) => m.asset === 'USDT')).toBe(true);
    const now = (await t.app.inject({ url: PATHS.statementMonthly, headers: bearer(tokens.alice as string) })).json().data;
    expect(now.month).toBe('2026-12');
    const empty = (
      await t.app.inject({ url: PATHS.statementMonthly, query: { month: '2026-10' }, headers: bearer(tokens.alice as string) })
    ).json().data as MonthlyData;
    expect(empty).toMatchObject({ assets: [], movements: [], nextCursor: null });
    for (const query of [{ month: '2026-13' }, { month: '2026-1' }, { month: '2026-11', cursor: 'x|y' }] as Record<string, string>[]) {
      const bad = await t.app.inject({ url: PATHS.statementMonthly, query, headers: bearer(tokens.alice as string) });
      expect(bad.statusCode).toBe(400);
    }
  });

  it('answers each holder the same month whether read alone or together with others', async () => {
    const asks = names.flatMap((who) =>
      ['2026-11', '2026-12'].flatMap((month) => [3, 50].map((limit) => ({ who, query: { month, limit: String(limit) } }))),
    );
    const ask = (a: (typeof asks)[number]) =>
      t.app.inject({ url: PATHS.statementMonthly, query: a.query, headers: bearer(tokens[a.who] as string) }).then((r) => r.json());
    const alone = [];
    for (const a of asks) alone.push(await ask(a));
    // Asked in the same moment: the holders' months of each (month, page size) are read in one statement.
    const together = await Promise.all(asks.map(ask));
    expect(together).toEqual(alone);
    expect(alone.every((answer) => answer.code === 0)).toBe(true);
    expect(alone.some((answer) => answer.data.movements.length > 0)).toBe(true);
    // And the statement itself, given every holder at once, against one holder at a time.
    const everyone = names.map((who) => ids[who] as bigint);
    for (const [from, to] of [['2026-11-01', '2026-12-01'], ['2026-12-01', '2027-01-01']]) {
      const range = { from: new Date(`${from}T00:00:00Z`), to: new Date(`${to}T00:00:00Z`) };
      const all = await holderMonths(t.ctx.db, everyone, range, null, 4);
      for (const id of everyone) expect(all.get(id)).toEqual((await holderMonths(t.ctx.db, [id], range, null, 4)).get(id));
      // A first page from the accounts' month figures is the same as from every posting. Every
      // holder's December is read from the figures (the latest month each account moved in);
      // November too for a holder none of whose accounts moved since.
      for (const limit of [4, 50]) {
        const rolled = await holderMonths(t.ctx.db, everyone, range, null, limit);
        const scanned = await holderMonths(t.ctx.db, everyone, range, null, limit, true);
        for (const id of everyone) {
          if (from === '2026-12-01') expect(rolled.get(id)?.rolled).toBe(true);
          expect({ ...rolled.get(id), rolled: false }).toEqual(scanned.get(id));
        }
      }
      const second = all.get(everyone[0] as bigint)?.movements.at(-1);
      if (second) {
        const cursor = { entryId: second.entry_id, asset: second.asset, account: second.account };
        const after = await holderMonths(t.ctx.db, everyone, range, cursor, 4);
        for (const id of everyone) expect(after.get(id)).toEqual((await holderMonths(t.ctx.db, [id], range, cursor, 4)).get(id));
      }
    }
  });

  it('never shows another holder’s movements, and needs a session', async () => {
    const alice = await csvOf('alice');
    const bob = await csvOf('bob');
    const bobPostings = await t.ctx.db
      .selectFrom('ledger_postings')
      .select(['entry_id', 'asset', 'kind'])
      .where('user_id', '=', ids.bob as bigint)
      .orderBy('entry_id')
      .orderBy('asset')
      .orderBy('kind')
      .execute();
    expect(bob.rows.map((r) => `${r.entry_id}|${r.asset}|${r.account}`)).toEqual(
      bobPostings.map((p) => `${p.entry_id}|${p.asset}|${p.kind}`),
    );
    const aliceOnly = alice.rows.filter((r) => r.type === 'recharge' || r.type === 'withdrawal_returned');
    const bobEntries = new Set(bob.rows.map((r) => r.entry_id));
    for (const row of aliceOnly) expect(bobEntries.has(row.entry_id)).toBe(false);
    const bobMonth = await monthly('bob', '2026-11');
    expect(bobMonth.movements.every((m) => bobEntries.has(m.entryId))).toBe(true);

    expect((await t.app.inject({ url: PATHS.statementCsv })).statusCode).toBe(401);
    expect((await t.app.inject({ url: PATHS.statementMonthly })).statusCode).toBe(401);
  });
});

/**
 * "Money in" is what came from outside: a holder who recharges 20,000 AIC and subscribes 6,000
 * sees 20,000 in, the platform's income apart, and a withdrawal out once approved; the moves
 * between the holder's own accounts (the subscription, a rejected withdrawal) in none of them.
 */
describe.each(DATABASES)('the statement’s flows on %s', (kind) => {
  let t: TestApp;
  let operator = '';
  let holder = '';
  const call = async (token: string, path: string, body: object = {}) => {
    const response = await post(t.app, path, token, body);
    expect(response.json(), path).toMatchObject({ code: 0 });
    return response.json().data;
  };
  const november = async () =>
    (await t.app.inject({ url: PATHS.statementMonthly, query: { month: '2026-11' }, headers: bearer(holder) })).json().data as MonthlyData;

  beforeAll(async () => {
    t = await startTestApp(kind, { clock: fixedClock(START), config: { operatorUserIds: [1n], sessionTtlDays: 1000 } });
    operator = (await signIn(t.app, { name: 'Ola' })).token;
    holder = (await signIn(t.app, { name: 'Sam' })).token;
    const { inviteCode } = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(operator) })).json().data;
    await call(holder, PATHS.bindInviter, { inviteCode });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts a recharge as money in, and a subscription as nothing', async () => {
    await call(holder, PATHS.recharge, { asset: 'AIC', amount: '20000' });
    await call(holder, PATHS.productBuy, { product: 'fixed30', amount: '6000' });
    const [aic] = (await november()).assets;
    expect(aic).toMatchObject({ asset: 'AIC', opening: '0', moneyIn: '20000', earnings: '0', moneyOut: '0', closing: '20000' });
    expect(aic?.accounts).toEqual([
      { account: 'earning', opening: '0', credits: '6000', debits: '0', closing: '6000' },
      { account: 'wallet', opening: '0', credits: '20000', debits: '-6000', closing: '14000' },
    ]);
  });

  it('counts income as earnings, an approved withdrawal as money out and a rejected one as nothing', async () => {
    t.ctx.clock.advance(2 * DAY_MS); // 29 November: the 28th, the term's first day, settled
    await settleDue(t.ctx);
    await call(holder, PATHS.withdraw, { asset: 'AIC', amount: '1000' });
    await call(holder, PATHS.withdraw, { asset: 'AIC', amount: '500' });
    const records = (await t.app.inject({ url: PATHS.transferRecords, headers: bearer(holder) })).json().data.items as { id: string; amount: string }[];
    await call(operator, PATHS.operatorApprove.replace(':id', String(records.find((r) => r.amount === '1000')?.id)));
    await call(operator, PATHS.operatorReject.replace(':id', String(records.find((r) => r.amount === '500')?.id)), { reason: 'test' });
    const month = await november();
    // 6,000 AIC at 0.3% for one day: 18 AIC.
    expect(month.assets[0]).toMatchObject({ moneyIn: '20000', earnings: '18', moneyOut: '-1000', closing: '19018' });
    const flows = new Map<string, Set<string>>();
    for (const m of month.movements) flows.set(m.type, new Set([...(flows.get(m.type) ?? []), m.flow]));
    expect(Object.fromEntries([...flows].map(([type, set]) => [type, [...set].sort()]))).toEqual({
      recharge: ['in'],
      subscription: ['internal'],
      income: ['earnings'],
      withdrawal: ['internal', 'out'],
      withdrawal_returned: ['internal'],
    });
  });

  it('writes the same flows in the CSV', async () => {
    const response = await t.app.inject({ url: PATHS.statementCsv, headers: bearer(holder) });
    const [header = [], ...lines] = parseCsv(response.body);
    expect(header.at(-1)).toBe('flow');
    const sum = (flow: string) =>
      lines.filter((fields) => fields.at(-1) === flow).reduce((total, fields) => total + unitsOf(fields[header.indexOf('amount')] as string), 0n);
    expect([sum('in'), sum('earnings'), sum('out'), sum('internal')]).toEqual([unitsOf('20000'), unitsOf('18'), unitsOf('-1000'), 0n]);
  });
});
