import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoticesData, NoticesQuery, ReadBody, ReadData, UnreadData } from '../../contract/notifications.ts';
import { PATHS } from '../../contract/paths.ts';
import { userIdOf } from '../http/caller.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { idempotentPost } from '../http/idempotentPost.ts';
import { answers, ok } from '../http/schemas.ts';
import { listNotices, markRead, ownsNotice, unreadCount, unreadNow } from './notices.ts';
import { pushRoutes } from './pushRoutes.ts';

const secured = { security: [{ bearer: [] }] };
const tags = ['notifications'];

/** The holder's notification centre: the list, the unread count, marking read; Web Push (pushRoutes.ts). */
export const notifyRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    PATHS.notifications,
    { schema: { tags, summary: 'The holder’s notices, newest first, with the unread count', ...secured, querystring: NoticesQuery, response: answers(NoticesData) } },
    async (request) => {
      return ok(await listNotices(ctx.db, userIdOf(request), { cursor: request.query.cursor, limit: request.query.limit ?? 20 }));
    },
  );

  app.get(
    PATHS.notificationsUnread,
    { schema: { tags, summary: 'How many notices the holder has not read', ...secured, response: answers(UnreadData) } },
    async (request) => ok({ unread: await unreadNow(ctx.db, userIdOf(request)) }),
  );

  idempotentPost(
    app,
    ctx,
    PATHS.notificationsRead,
    { tags, summary: 'Mark one notice read (404 for an id that is not the holder’s), or all of them', body: ReadBody, data: ReadData },
    async ({ userId, body }, trx) => {
      const marked = await markRead(trx, userId, body, ctx.clock.now());
      // Read before (0 changed) is fine; another holder's id or none at all is unknown.
      if (marked === 0 && 'id' in body && !(await ownsNotice(trx, userId, body.id))) throw new AppError('NOT_FOUND', 'no such notice');
      return { marked, unread: await unreadCount(trx, userId) };
    },
  );

  await app.register(pushRoutes, { ctx });
};
