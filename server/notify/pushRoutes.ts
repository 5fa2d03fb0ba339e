import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PATHS } from '../../contract/paths.ts';
import { PushKeyData, PushStateData, PushSubscribeBody, PushUnsubscribeBody } from '../../contract/push.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { idempotentPost } from '../http/idempotentPost.ts';
import { answers, ok } from '../http/schemas.ts';
import { keysProblem, pushKeys, subscribeProblem, subscribePush, unsubscribePush } from './push.ts';

const secured = { security: [{ bearer: [] }] };
const tags = ['notifications'];

/** Web Push, opt-in: the key to subscribe with, subscribing this browser, and stopping. */
export const pushRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    PATHS.pushKey,
    { schema: { tags, summary: 'The server’s VAPID public key, to subscribe a browser with', ...secured, response: answers(PushKeyData) } },
    async () => ok({ publicKey: (await pushKeys(ctx.db)).publicKey }),
  );

  idempotentPost(
    app,
    ctx,
    PATHS.pushSubscribe,
    {
      tags,
      summary: 'Send the holder’s notices to this browser (its push subscription), worded in this language',
      body: PushSubscribeBody,
      data: PushStateData,
      check: async ({ body }) => {
        const problem = (await subscribeProblem(body.endpoint, ctx.config)) ?? keysProblem(body.keys);
        if (problem) throw new AppError('PARAM', problem);
      },
    },
    async ({ userId, body }, trx) => {
      await subscribePush(trx, userId, body, ctx.clock.now());
      return { subscribed: true };
    },
  );

  idempotentPost(
    app,
    ctx,
    PATHS.pushUnsubscribe,
    { tags, summary: 'Stop sending to this browser (404 for an address that is not the holder’s)', body: PushUnsubscribeBody, data: PushStateData },
    async ({ userId, body }, trx) => {
      if ((await unsubscribePush(trx, userId, body.endpoint)) === 0) throw new AppError('NOT_FOUND', 'no such subscription');
      return { subscribed: false };
    },
  );
};
