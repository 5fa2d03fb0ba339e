import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import { EXCHANGE_PREFIX, WEBHOOK_PATH } from '../../contract/exchange.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/connect.ts';
import { exchangeApi } from './api.ts';
import { type ExchangeFaults, parseFaults } from './faults.ts';
import { webhookSender } from './webhooks.ts';

/** What tests reach of the embedded exchange: its faults, changed while it runs. */
export type EmbeddedExchange = { faults: ExchangeFaults };

/**
 * Serves the embedded exchange's API under `$PUBLIC_URL/exchange`, beside its OpenID provider:
 * the platform on this process and any other pointed at it use it through the same HTTP adapter
 * as a real exchange. Webhooks go to EXCHANGE_WEBHOOK_URL, by default this process's platform.
 */
export async function mountEmbeddedExchange(
  app: FastifyInstance,
  ctx: AppContext,
  provider: Provider,
  fetchImpl: typeof fetch,
): Promise<EmbeddedExchange> {
  const faults = parseFaults(ctx.config.exchangeFaults);
  const webhooks = webhookSender({
    url: ctx.config.exchangeWebhookUrl ?? `${ctx.config.publicUrl}${WEBHOOK_PATH}`,
    secret: ctx.config.exchangeWebhookSecret,
    fetch: fetchImpl,
    faults,
    log: app.log,
  });
  await app.register(exchangeApi(ctx, provider, faults, webhooks), { prefix: EXCHANGE_PREFIX });
  return { faults };
}

/** A holder withdraws the platform's consent at the exchange: every grant and token of theirs goes. */
export async function revokeConsent(db: Db, subject: string): Promise<void> {
  await sql`delete from provider_store
    where model in ('AccessToken', 'RefreshToken', 'Grant') and payload->>'accountId' = ${subject}`.execute(db);
}
