import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PATHS } from '../../contract/paths.ts';
import { PushKeyData, PushStateData, PushSubscribeBody, PushUnsubscribeBody } from '../../contract/push.ts';
import type { AppContext } from '../context.ts';
import { userIdOf } from '../http/caller.ts';
import { AppError } from '../http/errors.ts';
import { idempotent, sendAnswer } from '../http/idempotency.ts';
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

  app.post(
    PATHS.pushSubscribe,
    {
      schema: {
        tags,
        summary: 'Send the holder’s notices to this browser (its push subscription), worded in this language',
        ...secured,
        body: PushSubscribeBody,
        response: answers(PushStateData),
      },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      const body = request.body;
      const problem = (await subscribeProblem(body.endpoint, ctx.config)) ?? keysProblem(body.keys);
      if (problem) throw new AppError('PARAM', problem);
      const answer = await idempotent(ctx, request, userId, async (trx) => {
        await subscribePush(trx, userId, body, ctx.clock.now());
        return { subscribed: true };
      });
      return sendAnswer(reply, answer);
    },
  );

  app.post(
    PATHS.pushUnsubscribe,
    {
      schema: {
        tags,
        summary: 'Stop sending to this browser (404 for an address that is not the holder’s)',
        ...secured,
        body: PushUnsubscribeBody,
        response: answers(PushStateData),
      },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      const answer = await idempotent(ctx, request, userId, async (trx) => {
        if ((await unsubscribePush(trx, userId, request.body.endpoint)) === 0) throw new AppError('NOT_FOUND', 'no such subscription');
        return { subscribed: false };
      });
      return sendAnswer(reply, answer);
    },
  );
};
