import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOverHttp } from '../../e2e/support/httpSignIn.ts';
import { freePort } from '../../e2e/support/server.ts';
import { ERRORS } from '../../contract/errors.ts';
import { PATHS } from '../../contract/paths.ts';
import { checkExchangeBooks } from '../exchange/books.ts';
import { checkLedger } from '../ledger/ledger.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { reconcileDay } from './reconcile.ts';

const DAY = '2026-11-01';

/** A POST over HTTP as the web app sends it. */
async function post(base: string, path: string, token: string, body: object = {}) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': `k-${crypto.randomUUID()}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { code: number; data: Record<string, string> } };
}

async function get(base: string, path: string, token: string) {
  return ((await (await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data: unknown }).data;
}

/**
 * A real deployment's shape: one instance is the exchange (its embedded exchange, reached over
 * HTTP), the other the platform pointed at it with OIDC_ISSUER and EXCHANGE_API_URL. Money moves
 * only as the exchange's books say, and each day reconciles with them.
 */
describe.each(DATABASES)('money across the exchange boundary, the exchange another instance, on %s', (kind) => {
  let exchange: TestApp;
  let platform: TestApp;
  let exchangeUrl: string;
  let platformUrl: string;
  let operator: { token: string; userId: string };

  beforeAll(async () => {
    const [exchangePort, platformPort] = [await freePort(), await freePort()];
    exchangeUrl = `http://127.0.0.1:${exchangePort}`;
    platformUrl = `http://127.0.0.1:${platformPort}`;
    exchange = await startTestApp(kind, {
      config: {
        publicUrl: exchangeUrl,
        redirectUris: [`${platformUrl}/`],
        exchangeWebhookUrl: `${platformUrl}/webhooks/exchange`,
      },
    });
    await exchange.app.listen({ port: exchangePort, host: '127.0.0.1' });
    platform = await startTestApp(kind, {
      config: {
        publicUrl: platformUrl,
        redirectUris: [`${platformUrl}/`],
        oidcIssuer: `${exchangeUrl}/oidc`,
        exchangeApiUrl: `${exchangeUrl}/exchange`,
      },
    });
    await platform.app.listen({ port: platformPort, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await platform?.close();
    await exchange?.close();
  });

  /** The platform's figure from getAsset, the exchange's from its own route (over HTTP, from the other instance). */
  const balances = async (token: string) => {
    type Lines = { balances: { asset: string; available: string; exchange: string | null }[] };
    const data = (await get(platformUrl, PATHS.getAsset, token)) as Lines;
    const atExchange = (await get(platformUrl, PATHS.exchangeBalances, token)) as Lines;
    return { wallet: data.balances.find((b) => b.asset === 'AIC')?.available, exchange: atExchange.balances.find((b) => b.asset === 'AIC')?.exchange };
  };

  it('refuses a recharge the exchange cannot cover, recharges, and withdraws after another operator approves', async () => {
    operator = await signInOverHttp(platformUrl, { name: 'Olga' });
    const holder = await signInOverHttp(platformUrl, { name: 'Hana' });
    platform.ctx.config.operatorUserIds = [BigInt(operator.userId)];
    expect(await balances(holder.token)).toEqual({ wallet: '0', exchange: '20000' });

    const tooMuch = await post(platformUrl, PATHS.recharge, holder.token, { asset: 'AIC', amount: '1000000000' });
    expect(tooMuch.body.code).toBe(ERRORS.EXCHANGE_BALANCE.code);
    expect(await balances(holder.token)).toEqual({ wallet: '0', exchange: '20000' });

    const recharge = await post(platformUrl, PATHS.recharge, holder.token, { asset: 'AIC', amount: '100' });
    expect(recharge.body).toMatchObject({ code: 0, data: { status: 'success', amount: '100' } });
    expect(await balances(holder.token)).toEqual({ wallet: '100', exchange: '19900' });

    const withdraw = await post(platformUrl, PATHS.withdraw, holder.token, { asset: 'AIC', amount: '50' });
    expect(withdraw.body).toMatchObject({ code: 0, data: { status: 'under_review' } });
    const approve = await post(platformUrl, PATHS.operatorApprove.replace(':id', withdraw.body.data.id as string), operator.token);
    expect(approve.body).toMatchObject({ code: 0, data: { status: 'success' } });
    expect(await balances(holder.token)).toEqual({ wallet: '50', exchange: '19950' });

    expect((await checkLedger(platform.ctx.db)).ok).toBe(true);
    expect(await checkExchangeBooks(exchange.ctx.db)).toMatchObject({ ok: true, mismatched: 0 });
    // Nothing of the holder's exchange balance is in the platform's books.
    const held = await platform.ctx.db.selectFrom('accounts').select('kind').where('kind', '=', 'exchange_wallet').execute();
    expect(held).toEqual([]);
  });

  it('reconciles the day clean, and turns a difference planted by hand into one the operator resolves', async () => {
    expect(await reconcileDay(platform.ctx.db, platform.app.exchange.client, DAY, platform.ctx.clock.now())).toBe(0);
    // An amount changed behind the books' back: the platform now believes it moved one unit more.
    const planted = await platform.ctx.db
      .updateTable('transfers')
      .set({ amount: 100n * 100_000_000n + 1n })
      .where('type', '=', 'recharge')
      .where('status', '=', 'success')
      .returning('exchange_id')
      .executeTakeFirstOrThrow();
    expect(await reconcileDay(platform.ctx.db, platform.app.exchange.client, DAY, platform.ctx.clock.now())).toBe(1);
    const view = (await get(platformUrl, PATHS.operatorReconciliation, operator.token)) as {
      open: { id: string; kind: string; transferId: string }[];
    };
    expect(view.open).toMatchObject([{ kind: 'amount', transferId: planted.exchange_id }]);
    const id = view.open[0]?.id as string;
    const resolve = await post(platformUrl, PATHS.operatorResolveDifference.replace(':id', id), operator.token, {
      note: 'the row was edited by hand; restored from the exchange',
    });
    expect(resolve.body.code).toBe(0);
    const again = await post(platformUrl, PATHS.operatorResolveDifference.replace(':id', id), operator.token, { note: 'twice' });
    expect(again.body.code).toBe(ERRORS.DIFFERENCE_NONE.code);
    const audited = await platform.ctx.db.selectFrom('operator_audit').select(['action', 'target']).where('action', '=', 'resolve_difference').execute();
    expect(audited).toEqual([{ action: 'resolve_difference', target: `difference:${id}` }]);
  });
});
