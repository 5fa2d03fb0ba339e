import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Product } from '../../contract/products.ts';
import { ERRORS } from '../../contract/errors.ts';
import { PATHS } from '../../contract/paths.ts';
import { INBOUND, type TransferType } from '../../contract/wallet.ts';
import type { Db } from '../db/connect.ts';
import { newKey } from '../test/signIn.ts';
import { DEMO_BALANCES } from '../exchange/books.ts';
import { type Answer, type Call, pick, postCall, units } from './load.ts';
import { ORDERS, productsIn } from '../db/statuses.ts';

type Asset = 'AIC' | 'USDT';

/** What a client asks for; `callOf` makes the HTTP call, `Effects.record` notes its answer. */
export type Op =
  | { kind: 'move'; type: TransferType; asset: Asset; amount: string }
  | { kind: 'buy'; product: Product; amount: string }
  | { kind: 'redeem'; product: 'current' | 'fixed30'; orderId: string }
  | { kind: 'switch'; on: boolean; orderId: string }
  | { kind: 'claim' }
  | { kind: 'claimNetwork' }
  | { kind: 'review'; approve: boolean; transferId: string };

const MOVE_PATH: Record<TransferType, string> = {
  recharge: PATHS.recharge,
  transfer_in: PATHS.transferIn,
  transfer_out: PATHS.transferOut,
  withdraw: PATHS.withdraw,
};

/** The only refusals a well-formed request may get: what the books, the calendar or a minimum decide. */
const REFUSALS: Record<Op['kind'], number[]> = {
  // Random amounts may fall below WITHDRAW_MINIMUM on the way out.
  move: [ERRORS.WALLET_BALANCE.code, ERRORS.BELOW_TRANSFER_MINIMUM.code],
  buy: [ERRORS.BALANCE.code, ERRORS.DAILY_QUOTA.code, ERRORS.QUOTA.code],
  redeem: [ERRORS.REDEEM_NONE.code, ERRORS.NOT_MATURE.code],
  switch: [ERRORS.REDEEM_NONE.code],
  claim: [ERRORS.CLAIM_NONE.code],
  claimNetwork: [ERRORS.CLAIM_NONE.code],
  review: [ERRORS.ALREADY_REVIEWED.code],
};

export function callOf(op: Op, token: string): Call {
  const key = newKey();
  switch (op.kind) {
    case 'move':
      return { path: MOVE_PATH[op.type], token, key, body: { asset: op.asset, amount: op.amount } };
    case 'buy':
      return { path: PATHS.productBuy, token, key, body: { product: op.product, amount: op.amount } };
    case 'redeem':
      return {
        path: op.product === 'current' ? PATHS.redeemCurrent : PATHS.redeemRegular,
        token,
        key,
        body: { orderId: op.orderId },
      };
    case 'switch':
      return { path: op.on ? PATHS.oneRebuy : PATHS.cancelRebuy, token, key, body: { orderId: op.orderId } };
    case 'claim':
      return { path: PATHS.receive, token, key, body: {} };
    case 'claimNetwork':
      return { path: PATHS.receiveProfit, token, key, body: {} };
    case 'review':
      return {
        path: (op.approve ? PATHS.operatorApprove : PATHS.operatorReject).replace(':id', op.transferId),
        token,
        key,
        body: {},
      };
  }
}

type OrderData = { id: string; product: Product; quantity: string; income: string };

/**
 * Everything the server accepted, as its answers said, and every answer given to a first
 * send; `verify` then holds the database to it: each accepted request had exactly one
 * effect, nothing else happened, each balance follows from the accepted requests.
 */
export class Effects {
  readonly moves = new Map<string, { userId: string; type: TransferType; asset: Asset; amount: bigint }>();
  readonly reviews = new Map<string, 'success' | 'failure'>();
  readonly orders = new Map<string, { userId: string; product: Product; amount: bigint }>();
  readonly redeems = new Map<string, { userId: string; holding: bigint }>();
  readonly claims: { userId: string; kind: 'claim' | 'claim_network'; amount: bigint }[] = [];
  readonly switches = { accepted: 0 };
  readonly answered: { userId: string; key: string; answer: Answer }[] = [];
  /** Answered calls, for replays. */
  readonly history: { call: Call; answer: Answer }[] = [];
  refused = 0;
  replays = 0;

  /** Sends `op` as `user` with a fresh key and records its answer. */
  async perform(base: string, op: Op, user: { token: string; userId: string }): Promise<Answer> {
    const call = callOf(op, user.token);
    const answer = await postCall(base, call);
    this.record(op, user.userId, call, answer);
    this.history.push({ call, answer });
    return answer;
  }

  /** Sends an earlier call again with its key: the same answer comes back, nothing happens. */
  async replay(base: string): Promise<void> {
    const earlier = pick(this.history);
    const again = await postCall(base, earlier.call);
    expect({ status: again.status, body: again.body }, `${earlier.call.path} replayed`).toEqual({
      status: earlier.answer.status,
      body: earlier.answer.body,
    });
    this.replays++;
  }

  /** Notes the answer to the first send of `call`; throws on a refusal the op may not get. */
  record(op: Op, userId: string, call: Call, answer: Answer): boolean {
    this.answered.push({ userId, key: call.key, answer });
    const { code, data } = answer.body;
    if (code !== 0) {
      expect(REFUSALS[op.kind], `${call.path} ${JSON.stringify(call.body)}: ${answer.text}`).toContain(code);
      this.refused++;
      return false;
    }
    expect(answer.status).toBe(200);
    switch (op.kind) {
      case 'move':
        this.moves.set((data as { id: string }).id, { userId, type: op.type, asset: op.asset, amount: units(op.amount) });
        break;
      case 'buy':
        this.orders.set((data as OrderData).id, { userId, product: op.product, amount: units(op.amount) });
        break;
      case 'redeem': {
        const order = data as OrderData;
        expect(this.redeems.has(order.id), `order ${order.id} redeemed twice`).toBe(false);
        this.redeems.set(order.id, { userId, holding: units(order.quantity) + units(order.income) });
        break;
      }
      case 'switch':
        this.switches.accepted++;
        break;
      case 'claim':
      case 'claimNetwork':
        this.claims.push({
          userId,
          kind: op.kind === 'claim' ? 'claim' : 'claim_network',
          amount: units((data as { claimed: string }).claimed),
        });
        break;
      case 'review':
        this.reviews.set(op.transferId, op.approve ? 'success' : 'failure');
        break;
    }
    return true;
  }

  get accepted(): number {
    return this.answered.length - this.refused;
  }

  /** Holds the database to the accepted answers (see the class comment). */
  async verify(db: Db, userIds: string[]): Promise<void> {
    await this.verifyRows(db);
    await this.verifyEntries(db);
    for (const userId of userIds) await this.verifyBalances(db, userId);
    await this.verifyStoredAnswers(db);
  }

  private async verifyRows(db: Db): Promise<void> {
    const transfers = await db.selectFrom('transfers').select(['id', 'user_id', 'type', 'asset', 'amount', 'status']).execute();
    expect(transfers.map((r) => String(r.id)).sort()).toEqual([...this.moves.keys()].sort());
    for (const row of transfers) {
      const move = this.moves.get(String(row.id));
      expect({ userId: String(row.user_id), type: row.type, asset: row.asset, amount: row.amount }).toEqual(move);
      const inbound = row.type !== 'funding' && INBOUND.includes(row.type);
      expect(row.status).toBe(inbound ? 'success' : (this.reviews.get(String(row.id)) ?? 'under_review'));
    }

    const orders = await db.selectFrom('orders').select(['id', 'user_id', 'product', 'principal', 'status']).execute();
    expect(orders.map((r) => String(r.id)).sort()).toEqual([...this.orders.keys()].sort());
    for (const row of orders) {
      const order = this.orders.get(String(row.id));
      expect({ userId: String(row.user_id), product: row.product }).toEqual({ userId: order?.userId, product: order?.product });
      // Reinvested 360-day shares grow the principal; the other products keep it.
      if (row.product === 'reinvest360') expect(row.principal >= (order?.amount ?? 0n)).toBe(true);
      else expect(row.principal).toBe(order?.amount);
    }
    const redeemed = orders.filter((r) => r.status === 'redeemed' || r.status === 'redemption_successful');
    expect(redeemed.map((r) => String(r.id)).sort()).toEqual([...this.redeems.keys()].sort());
  }

  /** One journal entry per accepted effect, each referring to its own record once. */
  private async verifyEntries(db: Db): Promise<void> {
    const entries = await db
      .selectFrom('journal_entries')
      .select(['kind', 'ref'])
      .where('kind', 'in', [
        'subscribe', 'redeem', 'claim', 'claim_network', 'transfer_approved', 'transfer_rejected',
        'recharge', 'transfer_in', 'transfer_out', 'withdraw',
      ])
      .execute();
    const refsOf = (kinds: string[]) =>
      entries.filter((e) => kinds.includes(e.kind)).map((e) => String(e.ref)).sort();
    expect(refsOf(['subscribe'])).toEqual([...this.orders.keys()].map((id) => `order:${id}`).sort());
    expect(refsOf(['redeem'])).toEqual([...this.redeems.keys()].map((id) => `order:${id}`).sort());
    for (const type of ['recharge', 'transfer_in', 'transfer_out', 'withdraw'] as const) {
      const ids = [...this.moves].filter(([, m]) => m.type === type).map(([id]) => `transfer:${id}`);
      expect(refsOf([type])).toEqual(ids.sort());
    }
    for (const [kind, status] of [['transfer_approved', 'success'], ['transfer_rejected', 'failure']] as const) {
      const ids = [...this.reviews].filter(([, s]) => s === status).map(([id]) => `transfer:${id}`);
      expect(refsOf([kind])).toEqual(ids.sort());
    }
    expect(refsOf(['claim']).length).toBe(this.claims.filter((c) => c.kind === 'claim').length);
    expect(refsOf(['claim_network']).length).toBe(this.claims.filter((c) => c.kind === 'claim_network').length);
  }

  /**
   * Wallet, pending and exchange balances follow from the accepted requests alone; the earning
   * account holds exactly what the user's open orders hold.
   */
  private async verifyBalances(db: Db, userId: string): Promise<void> {
    const accounts = await db
      .selectFrom('accounts')
      .select(['asset', 'kind', 'balance'])
      .where('user_id', '=', BigInt(userId))
      .execute();
    const balance = (asset: Asset, kind: string) =>
      accounts.find((a) => a.asset === asset && a.kind === kind)?.balance ?? 0n;
    // The holder's balance in the embedded exchange's own books, under their subject there.
    const user = await db.selectFrom('users').select('subject').where('id', '=', BigInt(userId)).executeTakeFirstOrThrow();
    const atExchange = await db
      .selectFrom('xc_accounts')
      .select(['asset', 'balance'])
      .where('subject', '=', user.subject.slice(user.subject.indexOf('|') + 1))
      .execute();
    const exchangeBalance = (asset: Asset) => atExchange.find((a) => a.asset === asset)?.balance ?? DEMO_BALANCES[asset];
    for (const asset of ['AIC', 'USDT'] as const) {
      let wallet = 0n;
      let pending = 0n;
      let exchange = DEMO_BALANCES[asset];
      for (const [id, move] of this.moves) {
        if (move.userId !== userId || move.asset !== asset) continue;
        const review = this.reviews.get(id);
        if (INBOUND.includes(move.type)) {
          wallet += move.amount;
          exchange -= move.amount;
        } else if (review === undefined) {
          wallet -= move.amount;
          pending += move.amount;
        } else if (review === 'success') {
          wallet -= move.amount;
          exchange += move.amount;
        }
      }
      if (asset === 'AIC') {
        for (const order of this.orders.values()) if (order.userId === userId) wallet -= order.amount;
        for (const redeem of this.redeems.values()) if (redeem.userId === userId) wallet += redeem.holding;
        for (const claim of this.claims) if (claim.userId === userId) wallet += claim.amount;
      }
      expect(
        { asset, wallet: balance(asset, 'wallet'), pending: balance(asset, 'withdrawals_pending'), exchange: exchangeBalance(asset) },
        `balances of user ${userId}`,
      ).toEqual({ asset, wallet, pending, exchange });
    }
    const held = await sql<{ total: bigint }>`
      select coalesce(sum(case when product in ${productsIn('pool')} then principal else principal + income end), 0)::bigint as total
      from orders where user_id = ${BigInt(userId)}
        and status in ${ORDERS.held}`.execute(db);
    expect(balance('AIC', 'earning'), `earning account of user ${userId}`).toBe(held.rows[0]?.total ?? 0n);
  }

  /** Every answer given to a first send is the one stored under its key (what a retry gets). */
  private async verifyStoredAnswers(db: Db): Promise<void> {
    const rows = await db.selectFrom('idempotency_keys').select(['user_id', 'key', 'response_status', 'response_body']).execute();
    const stored = new Map(rows.map((r) => [`${r.user_id}|${r.key}`, r]));
    for (const { userId, key, answer } of this.answered) {
      const row = stored.get(`${userId}|${key}`);
      expect(row, `key ${key}`).toBeDefined();
      expect({ status: row?.response_status, body: row?.response_body }).toEqual({ status: answer.status, body: answer.body });
    }
  }
}
