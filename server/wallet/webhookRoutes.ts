import type { FastifyInstance } from 'fastify';
import { Value } from 'typebox/value';
import { WEBHOOK_PATH, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TOLERANCE_S, WebhookBody } from '../../contract/exchange.ts';
import { verifyWebhook } from '../../contract/webhookSignature.ts';
import type { AppContext } from '../context.ts';
import type { Exchange } from './exchange.ts';
import { resumeByExchangeId } from './transfers.ts';

/**
 * The exchange's webhooks: a signed hint that a transfer changed. The signature and its time are
 * checked on the exact bytes received; then the transfer is read from the exchange by its id,
 * as the worker would, so a forged, repeated or late webhook changes nothing by itself.
 */
export function webhookRoutes(ctx: AppContext, exchange: Exchange) {
  return async (app: FastifyInstance) => {
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    app.post(WEBHOOK_PATH, { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const header = request.headers[WEBHOOK_SIGNATURE_HEADER];
      const signed = await verifyWebhook(
        ctx.config.exchangeWebhookSecret,
        raw,
        typeof header === 'string' ? header : undefined,
        Math.floor(Date.now() / 1000),
        WEBHOOK_TOLERANCE_S,
      );
      if (!signed) {
        request.log.warn('exchange webhook refused: bad signature or time');
        return reply.status(401).send({ error: 'unauthorized' });
      }
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      if (!Value.Check(WebhookBody, body)) return reply.status(400).send({ error: 'bad_request' });
      const record = await resumeByExchangeId(ctx.db, exchange, body.transferId);
      return reply.status(200).send({ received: true, status: record?.status ?? null });
    });
  };
}
