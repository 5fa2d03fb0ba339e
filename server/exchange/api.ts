import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import {
  CreditBody,
  DebitBody,
  EXCHANGE_PATHS,
  EXCHANGE_PREFIX,
  ExchangeError,
  ExchangeTransfer,
  FundingBody,
  HolderBalances,
  PLATFORM_SUBJECT,
  OmnibusQuery,
  OmnibusStatement,
  RangeQuery,
  TRANSFER_SCOPE,
  TransferList,
  TransferParams,
} from '../../contract/exchange.ts';
import { exchangeOpenApi } from '../../contract/exchangeOpenApi.ts';
import type { AppContext } from '../context.ts';
import { applyTransfer, findTransfer, holderBalances, listTransfers, omnibusStatement, TransferMismatch } from './books.ts';
import { chance, type ExchangeFaults, pause } from './faults.ts';
import type { Webhooks } from './webhooks.ts';

type Failure = ExchangeError['error'];
const STATUS: Record<Failure, number> = {
  unauthorized: 401,
  consent_revoked: 403,
  not_found: 404,
  mismatch: 409,
  bad_request: 400,
  unavailable: 503,
};

class ExchangeRefusal extends Error {
  constructor(readonly failure: Failure, message: string) {
    super(message);
  }
}

const fail = (failure: Failure, message: string) => new ExchangeRefusal(failure, message);

const answers = <T>(data: T) => ({ 200: data, '4xx': ExchangeError, '5xx': ExchangeError });

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The platform calling with its client credentials (HTTP Basic, as at the token endpoint). */
function clientOf(ctx: AppContext, request: FastifyRequest): string {
  const header = request.headers.authorization ?? '';
  if (!header.startsWith('Basic ')) throw fail('unauthorized', 'client credentials required');
  const decoded = Buffer.from(header.slice(6), 'base64').toString();
  const colon = decoded.indexOf(':');
  const [id, secret] = [decodeURIComponent(decoded.slice(0, colon)), decodeURIComponent(decoded.slice(colon + 1))];
  if (colon < 0 || id !== ctx.config.oidcClientId || !sameSecret(secret, ctx.config.oidcClientSecret)) {
    throw fail('unauthorized', 'unknown client or wrong secret');
  }
  return id;
}

/** A holder through the platform: an access token the exchange issued with the transfer scope. */
async function holderOf(provider: Provider, request: FastifyRequest): Promise<{ clientId: string; subject: string }> {
  const header = request.headers.authorization ?? '';
  if (!header.startsWith('Bearer ')) throw fail('unauthorized', 'the holder’s access token required');
  const token = await provider.AccessToken.find(header.slice(7));
  if (!token?.accountId || !token.clientId) throw fail('unauthorized', 'unknown or expired access token');
  if (!String(token.scope ?? '').split(' ').includes(TRANSFER_SCOPE)) {
    throw fail('consent_revoked', `the holder has not granted the ${TRANSFER_SCOPE} scope`);
  }
  return { clientId: token.clientId, subject: token.accountId };
}

/**
 * The embedded exchange's API (contract/exchange.ts) under `/exchange`: what a real exchange
 * would serve the platform, with its faults on demand. Its own error answers, not the app's.
 */
export function exchangeApi(ctx: AppContext, provider: Provider, faults: ExchangeFaults, webhooks: Webhooks) {
  return async (app: FastifyInstance) => {
    app.setErrorHandler((error: Error & { validation?: unknown }, _request, reply: FastifyReply) => {
      if (error instanceof ExchangeRefusal) {
        return reply.status(STATUS[error.failure]).send({ error: error.failure, message: error.message });
      }
      if (error instanceof TransferMismatch) return reply.status(409).send({ error: 'mismatch', message: error.message });
      if (error.validation || error instanceof RangeError) return reply.status(400).send({ error: 'bad_request', message: error.message });
      reply.log.error({ err: error }, 'exchange API failed');
      return reply.status(503).send({ error: 'unavailable', message: 'try again' });
    });
    app.addHook('onRequest', async () => {
      if (faults.slowMs > 0) await pause(faults.slowMs);
    });

    const write = async (request: Parameters<typeof applyTransfer>[1]) => {
      if (chance(faults.failBeforeApply)) throw fail('unavailable', 'a fault before the transfer (nothing applied)');
      const transfer = await applyTransfer(ctx.db, request, ctx.clock.now());
      webhooks.send(transfer.transferId);
      if (chance(faults.timeoutAfterApply)) await pause(faults.hangMs);
      return transfer;
    };

    const hidden = { hide: true } as const;
    app.post(
      EXCHANGE_PATHS.debits,
      { schema: { ...hidden, body: DebitBody, response: answers(ExchangeTransfer) } },
      async (request) => {
        const holder = await holderOf(provider, request);
        const body = request.body as DebitBody;
        return write({ ...body, clientId: holder.clientId, subject: holder.subject, direction: 'debit' });
      },
    );
    app.post(
      EXCHANGE_PATHS.credits,
      { schema: { ...hidden, body: CreditBody, response: answers(ExchangeTransfer) } },
      async (request) => {
        const clientId = clientOf(ctx, request);
        return write({ ...(request.body as CreditBody), clientId, direction: 'credit' });
      },
    );
    app.post(
      EXCHANGE_PATHS.fundings,
      { schema: { ...hidden, body: FundingBody, response: answers(ExchangeTransfer) } },
      async (request) => {
        const clientId = clientOf(ctx, request);
        return write({ ...(request.body as FundingBody), clientId, subject: PLATFORM_SUBJECT, direction: 'funding' });
      },
    );
    app.get(
      EXCHANGE_PATHS.transfer,
      { schema: { ...hidden, params: TransferParams, response: answers(ExchangeTransfer) } },
      async (request) => {
        const clientId = clientOf(ctx, request);
        const { transferId } = request.params as { transferId: string };
        const transfer = await findTransfer(ctx.db, clientId, transferId);
        if (!transfer) throw fail('not_found', 'no transfer with this id');
        return transfer;
      },
    );
    app.get(
      EXCHANGE_PATHS.transfers,
      { schema: { ...hidden, querystring: RangeQuery, response: answers(TransferList) } },
      async (request) => {
        const clientId = clientOf(ctx, request);
        const query = request.query as RangeQuery;
        return listTransfers(ctx.db, clientId, {
          from: new Date(query.from),
          to: new Date(query.to),
          ...(query.after ? { after: query.after } : {}),
          limit: query.limit ?? 500,
        });
      },
    );
    app.get(
      EXCHANGE_PATHS.omnibus,
      { schema: { ...hidden, querystring: OmnibusQuery, response: answers(OmnibusStatement) } },
      async (request) => {
        const clientId = clientOf(ctx, request);
        const query = request.query as { from: string; to: string };
        return { balances: await omnibusStatement(ctx.db, clientId, new Date(query.from), new Date(query.to)) };
      },
    );
    app.get('/openapi.json', { schema: hidden }, async () => exchangeOpenApi(`${ctx.config.publicUrl}${EXCHANGE_PREFIX}`));
    app.get(EXCHANGE_PATHS.balances, { schema: { ...hidden, response: answers(HolderBalances) } }, async (request) => {
      const holder = await holderOf(provider, request);
      return { balances: await holderBalances(ctx.db, holder.subject) };
    });
  };
}
