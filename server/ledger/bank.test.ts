import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUnits, parseAmount, UNIT } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { INBOUND, type TransferType } from '../../contract/wallet.ts';
import { DEMO_BALANCES } from '../wallet/exchange.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { newKey, signIn } from '../test/signIn.ts';
import { checkLedger } from './ledger.ts';

const CLIENTS = 50;
const USERS = 8;
const TYPES: TransferType[] = ['recharge', 'transfer_in', 'transfer_out', 'withdraw'];
const PATH_OF: Record<TransferType, string> = {
  recharge: PATHS.recharge,
  transfer_in: PATHS.transferIn,
  transfer_out: PATHS.transferOut,
  withdraw: PATHS.withdraw,
};

type Sent = { path: string; token: string; body: object; key: string };
type Accepted = { id: string; userId: string; type: TransferType; asset: 'AIC' | 'USDT'; amount: bigint };

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const units = (text: string) => {
  const parsed = parseAmount(text);
  if (!parsed.ok) throw new Error(text);
  return parsed.value;
};

/**
 * The bank test: many clients move money at once for a bounded time; at the end the books
 * balance, nobody is negative, and every accepted request had exactly one effect.
 */
describe.each(DATABASES)('bank test on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let operator: string;
  const users: { token: string; userId: string }[] = [];
  beforeAll(async () => {
    t = await startTestApp(kind, { config: { operatorUserIds: [1n] } });
    operator = (await signIn(t.app, { name: 'operator' })).token;
    for (let i = 0; i < USERS; i++) users.push(await signIn(t.app, { name: `client ${i}` }));
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
  });

  const send = async ({ path, token, body, key }: Sent) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { code: number; data: { id: string; status: string } | null };
  };

  it('keeps the books exact under concurrent load', async () => {
    const accepted = new Map<string, Accepted>();
    const reviews = new Map<string, 'success' | 'failure'>();
    const pending: string[] = [];
    const history: { sent: Sent; answer: string }[] = [];
    let requests = 0;
    let replays = 0;
    const deadline = Date.now() + (kind === 'postgres' ? 6_000 : 4_000);

    const client = async () => {
      while (Date.now() < deadline) {
        requests++;
        const roll = Math.random();
        if (roll < 0.1 && history.length > 0) {
          // A retry of an earlier request with its key: same answer, no second effect.
          const earlier = pick(history);
          const again = await send(earlier.sent);
          expect(JSON.stringify(again)).toBe(earlier.answer);
          replays++;
        } else if (roll < 0.3 && pending.length > 0) {
          const id = pending.splice(Math.floor(Math.random() * pending.length), 1)[0] as string;
          const approve = Math.random() < 0.5;
          const sent = {
            path: (approve ? PATHS.operatorApprove : PATHS.operatorReject).replace(':id', id),
            token: operator,
            body: {},
            key: newKey(),
          };
          const answer = await send(sent);
          history.push({ sent, answer: JSON.stringify(answer) });
          if (answer.code === 0) reviews.set(id, approve ? 'success' : 'failure');
        } else {
          const user = pick(users);
          const type = pick(TYPES);
          const asset = pick(['AIC', 'USDT'] as const);
          const amount = formatUnits(BigInt(1 + Math.floor(Math.random() * 300)) * (UNIT / 7n));
          const sent = { path: PATH_OF[type], token: user.token, body: { asset, amount }, key: newKey() };
          const answer = await send(sent);
          history.push({ sent, answer: JSON.stringify(answer) });
          if (answer.code === 0 && answer.data) {
            accepted.set(answer.data.id, { id: answer.data.id, userId: user.userId, type, asset, amount: units(amount) });
            if (!INBOUND.includes(type)) pending.push(answer.data.id);
          } else {
            expect(answer.code).toBe(126); // the only refusal a valid request can get: balance
          }
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));

    // The books balance to the unit, nobody is negative, balances equal their postings.
    const check = await checkLedger(t.ctx.db);
    expect(check).toMatchObject({ ok: true, negativeUserAccounts: 0, accountsNotMatchingPostings: 0 });

    // Every accepted request had exactly one effect, and nothing else happened.
    const rows = await t.ctx.db.selectFrom('transfers').select(['id', 'user_id', 'amount', 'status', 'type']).execute();
    expect(rows.map((r) => String(r.id)).sort()).toEqual([...accepted.keys()].sort());
    for (const row of rows) {
      const expected = accepted.get(String(row.id));
      expect(row.amount).toBe(expected?.amount);
      if (reviews.has(String(row.id))) expect(row.status).toBe(reviews.get(String(row.id)));
    }

    // Each user's balances follow from what was accepted and how it was reviewed.
    for (const user of users) {
      for (const asset of ['AIC', 'USDT'] as const) {
        let wallet = 0n;
        let pendingSum = 0n;
        let exchange = DEMO_BALANCES[asset];
        for (const row of rows) {
          const a = accepted.get(String(row.id));
          if (!a || a.userId !== user.userId || a.asset !== asset) continue;
          if (INBOUND.includes(a.type)) {
            wallet += a.amount;
            exchange -= a.amount;
          } else if (row.status === 'under_review') {
            wallet -= a.amount;
            pendingSum += a.amount;
          } else if (row.status === 'success') {
            wallet -= a.amount;
            exchange += a.amount;
          }
        }
        const balances = await t.ctx.db
          .selectFrom('accounts')
          .select(['kind', 'balance'])
          .where('user_id', '=', BigInt(user.userId))
          .where('asset', '=', asset)
          .execute();
        const of = (k: string) => balances.find((b) => b.kind === k)?.balance ?? 0n;
        expect([of('wallet'), of('withdrawals_pending'), of('exchange_wallet')]).toEqual([wallet, pendingSum, exchange]);
      }
    }
    console.log(
      `bank test on ${kind}: ${requests} requests from ${CLIENTS} clients, ${accepted.size} accepted moves, ` +
        `${reviews.size} reviews, ${replays} replays; ledger ok`,
    );
    expect(accepted.size).toBeGreaterThan(50);
    expect(replays).toBeGreaterThan(0);
  });
});
