import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { perOwner } from './cache.ts';

/**
 * A message to every process of the deployment at once, through Redis's publish/subscribe when
 * REDIS_URL is set (a holder's session revoked on one process is forgotten by every other's
 * copy at once). Without Redis, or while it is down, a process hears only itself, and the others
 * notice within their copies' lifetime (SESSION_CACHE_MS, at most a second).
 */
export type Broadcast = {
  /** To every other process (the sender acts on its own message itself, at once). */
  publish(message: string): void;
  subscribe(listener: (message: string) => void): void;
  close(): Promise<void>;
};

export function redisBroadcast(url: string, channel: string, log: FastifyBaseLogger): Broadcast {
  const listeners: ((message: string) => void)[] = [];
  const options = { lazyConnect: false, enableOfflineQueue: false, maxRetriesPerRequest: 1 } as const;
  const publisher = new Redis(url, options);
  // A connection in subscriber mode can do nothing else: a second one listens.
  const subscriber = new Redis(url, { ...options, enableOfflineQueue: true });
  for (const connection of [publisher, subscriber]) connection.on('error', (error: Error) => log.debug({ err: error }, 'broadcast: redis error'));
  subscriber.subscribe(channel).catch((error: unknown) => log.warn({ err: error }, 'broadcast: cannot subscribe; other processes notice within a second'));
  subscriber.on('message', (from: string, message: string) => {
    if (from === channel) for (const listener of listeners) listener(message);
  });
  return {
    publish(message) {
      publisher.publish(channel, message).catch((error: unknown) => log.warn({ err: error }, 'broadcast: not published; other processes notice within a second'));
    },
    subscribe(listener) {
      listeners.push(listener);
    },
    async close() {
      await Promise.all([publisher, subscriber].map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}

/** No other process to tell (no REDIS_URL): the sender acts on its own message itself. */
function localBroadcast(): Broadcast {
  return { publish: () => {}, subscribe: () => {}, close: async () => {} };
}

/** Each database's (each app's) broadcast of revoked sessions, set once by `app.ts`. */
export const revocations = perOwner((_db: object) => ({ current: localBroadcast() }));
