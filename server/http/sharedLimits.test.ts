import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { authorPageVia } from '../test/signIn.ts';
import { RATE_LIMIT_PREFIX } from './security.ts';

/** This machine's Redis (the README's REDIS_URL example); the suite needs it, as it needs PostgreSQL. */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Two server processes behind one proxy (two apps, each its own counters in memory), one client
 * signing in through both. The client's address is new on every run (a documentation range), so
 * counters a previous run left in Redis for their minute are not this run's.
 */
describe('rate limits shared by every process (REDIS_URL)', () => {
  const apps: TestApp[] = [];
  const client = `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await redis.quit();
  });

  async function twoProcesses(redisUrl: string | undefined): Promise<[TestApp, TestApp]> {
    const start = () =>
      startTestApp('pglite', { seed: false, config: { redisUrl, trustProxy: ['127.0.0.1'], rateLimitSignInPerMinute: 3 } });
    const pair = [await start(), await start()] as [TestApp, TestApp];
    apps.push(...pair);
    return pair;
  }

  /** Sign-in calls through the processes in turn (a, b, a, b, ...), answering their statuses. */
  async function signIns(through: TestApp[], calls: number, from: string): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < calls; i++) statuses.push(await authorPageVia((through[i % through.length] as TestApp).app, from));
    return statuses;
  }

  it('with REDIS_URL, the limit holds across processes: the fourth call of three a minute is refused on either', async () => {
    const [a, b] = await twoProcesses(REDIS_URL);
    expect(await signIns([a, b], 5, client)).toEqual([200, 200, 200, 429, 429]);
    // The counter is in Redis under the app's prefix, named by the limiter and the client.
    const keys = await redis.keys(`${RATE_LIMIT_PREFIX}*${client}`);
    expect(keys).toEqual([`${RATE_LIMIT_PREFIX}signin /api/authorPage:ip:${client}`]);
    expect(Number(await redis.get(keys[0] as string))).toBe(5);
    // Another client behind the same proxy is not held back by the first.
    expect(await signIns([b, a], 2, `${client}:1`)).toEqual([200, 200]);
  });

  it('without it, each process counts alone: the same calls pass, three on each', async () => {
    const [a, b] = await twoProcesses(undefined);
    expect(await signIns([a, b], 6, client)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await signIns([a], 1, client)).toEqual([429]);
  });

  it('a Redis that does not answer at start stops the server with a line naming REDIS_URL', async () => {
    await expect(
      startTestApp('pglite', { seed: false, config: { redisUrl: 'redis://127.0.0.1:1' } }),
    ).rejects.toThrow(/^REDIS_URL: cannot reach 127\.0\.0\.1:1/);
  });
});
