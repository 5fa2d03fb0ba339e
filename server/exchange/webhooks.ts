import { WEBHOOK_SIGNATURE_HEADER } from '../../contract/exchange.ts';
import { signWebhook } from '../../contract/webhookSignature.ts';
import type { FastifyBaseLogger } from 'fastify';
import { chance, type ExchangeFaults, pause } from './faults.ts';

export type Webhooks = { send(transferId: string): void };

/**
 * The exchange tells the platform that a transfer changed, signed with the shared secret. Sent
 * once and not awaited: the platform treats a webhook only as a hint and finds every transfer
 * by reading it anyway. Faults can send one twice, late (out of order), or badly signed first.
 */
export function webhookSender(
  options: { url: string | undefined; secret: string; fetch: typeof fetch; faults: ExchangeFaults; log: FastifyBaseLogger },
): Webhooks {
  const post = async (body: string, secret: string) => {
    const signature = await signWebhook(secret, body, Math.floor(Date.now() / 1000));
    await options.fetch(options.url as string, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signature },
      body,
      signal: AbortSignal.timeout(5_000),
    });
  };
  const deliver = async (transferId: string) => {
    const { faults } = options;
    if (faults.webhookDelayMs > 0) await pause(Math.random() * faults.webhookDelayMs);
    const body = JSON.stringify({ transferId });
    if (chance(faults.webhookBadSignature)) await post(body, `${options.secret}-wrong`);
    await post(body, options.secret);
    if (chance(faults.webhookDuplicate)) await post(body, options.secret);
  };
  return {
    send(transferId) {
      if (!options.url) return;
      deliver(transferId).catch((error: unknown) => options.log.debug({ err: error, transferId }, 'webhook not delivered'));
    },
  };
}
