import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { WEBHOOK_PATH, WEBHOOK_SIGNATURE_HEADER } from '../../contract/exchange.ts';
import { UNIT } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { signWebhook } from '../../contract/webhookSignature.ts';
import { checkExchangeBooks } from '../exchange/books.ts';
import { revokeConsent } from '../exchange/embedded.ts';
import { NO_FAULTS } from '../exchange/faults.ts';
import { balanceOf, checkLedger, SYSTEM } from '../ledger/ledger.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, newKey, post, signIn } from '../test/signIn.ts';
import { resumeTransfers } from './transfers.ts';

/** Far enough ahead that every lease and wait has run out. */
const later = () => new Date(Date.now() + 3_600_000);

/**
 * The exchange on a bad day, made by the embedded exchange's faults: each transfer still ends
 * once, as the exchange's books say, and the platform's books balance throughout.
 */
describe.each(DATABASES)('transfers under the exchange’s faults on %s', (kind) => {
  let t: TestApp;
  let operator: string;

  beforeAll(async () => {
    t = await startTestApp(kind, { config: { exchangeTimeoutMs: 300, exchangeAttempts: 2 } });
    const olga = await signIn(t.app, { name: 'Olga' });
    operator = olga.token;
    t.ctx.config.operatorUserIds = [BigInt(olga.userId)];
  });
  afterEach(async () => {
    Object.assign(t.app.embeddedExchange?.faults ?? {}, NO_FAULTS);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
    expect((await checkExchangeBooks(t.ctx.db)).ok).toBe(true);
  });
  afterAll(async () => {
    await t?.close();
  });

  const faults = () => t.app.embeddedExchange?.faults ?? NO_FAULTS;
  const holder = async () => {
    const session = await signIn(t.app, { name: `holder ${newKey()}` });
    return { ...session, id: BigInt(session.userId) };
  };
  const figures = async (h: { token: string; id: bigint }) => {
    const asset = (await t.app.inject({ url: PATHS.getAsset, headers: bearer(h.token) })).json().data;
    const aic = asset.balances.find((b: { asset: string }) => b.asset === 'AIC');
    const atExchange = (await t.app.inject({ url: PATHS.exchangeBalances, headers: bearer(h.token) })).json().data;
    const exchange = atExchange.balances.find((b: { asset: string }) => b.asset === 'AIC').exchange;
    return { wallet: aic.available as string, exchange: exchange as string | null };
  };

  it('answers unknown when every try fails before the exchange applies it, and the worker then credits it once', async () => {
    const h = await holder();
    faults().failBeforeApply = 1;
    const key = newKey();
    const first = (await post(t.app, PATHS.recharge, h.token, { asset: 'AIC', amount: '100' }, key)).json();
    expect(first).toMatchObject({ code: 0, data: { status: 'unknown', amount: '100' } });
    expect(await balanceOf(t.ctx.db, { userId: h.id, asset: 'AIC', kind: 'wallet' })).toBe(0n);
    faults().failBeforeApply = 0;
    expect(await figures(h)).toEqual({ wallet: '0', exchange: '20000' });
    // The exchange never got it: the worker sends it again under the same id, once.
    await resumeTransfers(t.ctx.db, t.app.exchange, { now: later() });
    await resumeTransfers(t.ctx.db, t.app.exchange, { now: later() });
    expect(await figures(h)).toEqual({ wallet: '100', exchange: '19900' });
    const records = (await t.app.inject({ url: PATHS.transferRecords, headers: bearer(h.token) })).json().data.items;
    expect(records).toMatchObject([{ type: 'recharge', status: 'success', amount: '100' }]);
    // The request's key keeps its first answer.
    const again = (await post(t.app, PATHS.recharge, h.token, { asset: 'AIC', amount: '100' }, key)).json();
    expect(again).toEqual(first);
  });

  it('finds a transfer applied behind a timed-out answer by reading it, never applying it twice', async () => {
    const h = await holder();
    Object.assign(faults(), { timeoutAfterApply: 1, hangMs: 900 });
    const answer = (await post(t.app, PATHS.transferIn, h.token, { asset: 'USDT', amount: '12.5' })).json();
    expect(answer).toMatchObject({ code: 0, data: { status: 'unknown' } });
    Object.assign(faults(), NO_FAULTS);
    await resumeTransfers(t.ctx.db, t.app.exchange, { now: later() });
    expect(await balanceOf(t.ctx.db, { userId: h.id, asset: 'USDT', kind: 'wallet' })).toBe(1250n * UNIT / 100n);
    const applied = await t.ctx.db.selectFrom('xc_transfers').select(['status']).where('amount', '=', 1250n * UNIT / 100n).execute();
    expect(applied).toEqual([{ status: 'applied' }]);
  });

  it('keeps an approved withdrawal in the clearing account until the exchange confirms the credit', async () => {
    const h = await holder();
    await post(t.app, PATHS.transferIn, h.token, { asset: 'AIC', amount: '300' });
    const request = (await post(t.app, PATHS.withdraw, h.token, { asset: 'AIC', amount: '120' })).json();
    Object.assign(faults(), { timeoutAfterApply: 1, hangMs: 900 });
    const approved = (await post(t.app, PATHS.operatorApprove.replace(':id', request.data.id), operator)).json();
    expect(approved).toMatchObject({ code: 0, data: { status: 'unknown' } });
    expect(await balanceOf(t.ctx.db, { userId: SYSTEM, asset: 'AIC', kind: 'exchange_clearing' })).toBe(120n * UNIT);
    Object.assign(faults(), NO_FAULTS);
    await resumeTransfers(t.ctx.db, t.app.exchange, { now: later() });
    expect(await balanceOf(t.ctx.db, { userId: SYSTEM, asset: 'AIC', kind: 'exchange_clearing' })).toBe(0n);
    expect(await figures(h)).toEqual({ wallet: '180', exchange: '19820' });
  });

  it('still moves money when every answer is slow', async () => {
    const h = await holder();
    faults().slowMs = 100;
    const answer = (await post(t.app, PATHS.recharge, h.token, { asset: 'AIC', amount: '5' })).json();
    expect(answer).toMatchObject({ code: 0, data: { status: 'success' } });
  });

  it('refuses a recharge whose consent the holder withdrew at the exchange, and credits nothing', async () => {
    const h = await holder();
    const user = await t.ctx.db.selectFrom('exchange_grants').select('subject').where('user_id', '=', h.id).executeTakeFirstOrThrow();
    await revokeConsent(t.ctx.db, user.subject);
    // The stored access token still looks valid to the platform: the exchange refuses it, the
    // refresh is refused too, and the consent is gone.
    const answer = (await post(t.app, PATHS.recharge, h.token, { asset: 'AIC', amount: '10' })).json();
    expect(answer.code).toBe(ERRORS.EXCHANGE_CONSENT.code);
    expect(await balanceOf(t.ctx.db, { userId: h.id, asset: 'AIC', kind: 'wallet' })).toBe(0n);
    const next = (await post(t.app, PATHS.recharge, h.token, { asset: 'AIC', amount: '10' })).json();
    expect(next.code).toBe(ERRORS.EXCHANGE_CONSENT.code);
    // Signing in again gives it back.
    const subject = user.subject;
    const again = await signIn(t.app, { account: subject });
    expect((await post(t.app, PATHS.recharge, again.token, { asset: 'AIC', amount: '10' })).json().code).toBe(0);
  });

  it('takes a webhook only with its signature and time, as a hint to read the transfer, as often as it comes', async () => {
    const h = await holder();
    faults().failBeforeApply = 1;
    await post(t.app, PATHS.recharge, h.token, { asset: 'AIC', amount: '7' });
    faults().failBeforeApply = 0;
    const row = await t.ctx.db.selectFrom('transfers').select(['exchange_id', 'status']).where('user_id', '=', h.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('unknown');
    const body = JSON.stringify({ transferId: row.exchange_id });
    const send = (signature: string) =>
      t.app.inject({ method: 'POST', url: WEBHOOK_PATH, headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signature }, payload: body });
    const now = Math.floor(Date.now() / 1000);
    expect((await send(await signWebhook('not the secret', body, now))).statusCode).toBe(401);
    expect((await send(await signWebhook(t.ctx.config.exchangeWebhookSecret, body, now - 3600))).statusCode).toBe(401);
    expect(await figures(h)).toEqual({ wallet: '0', exchange: '20000' });
    // A good one drives the transfer now; repeats find it ended and change nothing.
    for (let i = 0; i < 3; i++) {
      const answer = await send(await signWebhook(t.ctx.config.exchangeWebhookSecret, body, now));
      expect(answer.json()).toEqual({ received: true, status: 'success' });
    }
    expect(await figures(h)).toEqual({ wallet: '7', exchange: '19993' });
  });

  it('publishes its API as an OpenAPI document, each operation named', async () => {
    const doc = (await t.app.inject({ url: '/exchange/openapi.json' })).json();
    expect(doc.openapi).toBe('3.0.3');
    expect(Object.keys(doc.paths).sort()).toEqual(['/v1/balances', '/v1/credits', '/v1/debits', '/v1/fundings', '/v1/omnibus', '/v1/transfers', '/v1/transfers/{transferId}']);
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item as Record<string, { operationId: string }>).map((op) => op.operationId));
    expect(ids.sort()).toEqual(['creditHolder', 'debitHolder', 'fundOmnibus', 'holderBalances', 'listTransfers', 'omnibusStatement', 'readTransfer']);
  });
});
