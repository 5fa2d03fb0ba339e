import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../../contract/errors.ts';
import { BUSY_RETRIES, mayRepeat, pause, queryRetry, queryRetryDelay, withBackoff } from './backoff.ts';
import { outcomeOf, retryAfterMs, transport } from './transport.ts';

/**
 * A server that is busy (503 SERVER_BUSY with a Retry-After) for the first `n` calls of a path
 * `/busy/<n>/<retry-after>/<id>`, then answers; each id counts its own calls.
 */
let server: Server;
let base = '';
const calls = new Map<string, number>();
beforeAll(async () => {
  server = createServer((request, response) => {
    const [, , busyFor, retryAfter, id] = (request.url ?? '').split('/');
    const seen = (calls.get(id as string) ?? 0) + 1;
    calls.set(id as string, seen);
    response.setHeader('content-type', 'application/json');
    if (seen <= Number(busyFor)) {
      if (retryAfter !== 'none') response.setHeader('retry-after', retryAfter as string);
      response.statusCode = 503;
      response.end(JSON.stringify({ code: ERRORS.SERVER_BUSY.code, msg: 'busy', data: null }));
    } else {
      response.end(JSON.stringify({ code: 0, msg: 'ok', data: { seen } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let ids = 0;
/** Calls `/busy/<busyFor>/<retryAfter>` through withBackoff; the waits it asked for are recorded, not waited. */
async function call(busyFor: number, retryAfter: string) {
  const id = String(++ids);
  const waits: number[] = [];
  const answer = await withBackoff(
    () => transport(`${base}/busy/${busyFor}/${retryAfter}/${id}`, {}),
    null,
    async (ms) => {
      waits.push(ms);
    },
  );
  return { answer, waits, calls: calls.get(id) };
}

describe('the client backs off a busy server (503 with Retry-After)', () => {
  it('asks again after the wait the server asked for, and takes the answer that comes', async () => {
    const { answer, waits, calls } = await call(2, '1');
    expect(outcomeOf(answer)).toEqual({ ok: true, data: { seen: 3 } });
    expect({ waits, calls }).toEqual({ waits: [1000, 1000], calls: 3 });
  });

  it(`asks again at most ${BUSY_RETRIES} times, then gives the busy answer: its message in the holder's language`, async () => {
    const { answer, waits, calls } = await call(99, '2');
    expect({ waits, calls }).toEqual({ waits: [2000, 2000], calls: 1 + BUSY_RETRIES });
    expect(outcomeOf(answer)).toEqual({ ok: false, code: ERRORS.SERVER_BUSY.code, key: 'err.serverBusy', msg: 'busy' });
  });

  it('does not ask again without a Retry-After, or when it asks for more than the client waits', async () => {
    expect(await call(1, 'none')).toMatchObject({ waits: [], calls: 1 });
    expect(await call(1, '60')).toMatchObject({ waits: [], calls: 1 });
  });

  it('sends a POST again only with its Idempotency-Key', () => {
    expect(mayRepeat(undefined, {})).toBe(true);
    expect(mayRepeat('GET', {})).toBe(true);
    expect(mayRepeat('POST', { 'Idempotency-Key': 'k-1' })).toBe(true);
    expect(mayRepeat('POST', {})).toBe(false);
  });

  it('stops waiting when the caller cancels', async () => {
    const caller = new AbortController();
    const waiting = pause(60_000, caller.signal);
    caller.abort(new DOMException('left the screen', 'AbortError'));
    await expect(waiting).rejects.toThrow('left the screen');
  });

  it('reads Retry-After in seconds, the form the server sends', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});

describe("the query cache's retry", () => {
  it('does not ask a busy call again (the client did), and asks others once', () => {
    expect(queryRetry(0, { busy: true, retryAfterMs: 2000 })).toBe(false);
    expect(queryRetry(0, { busy: false })).toBe(true);
    expect(queryRetry(1, { busy: false })).toBe(false);
  });

  it("waits the server's Retry-After when it gave one (a rate limit's), else its own backoff", () => {
    expect(queryRetryDelay(0, { busy: false, retryAfterMs: 30_000 })).toBe(30_000);
    expect(queryRetryDelay(0, new Error('offline'))).toBe(1000);
    expect(queryRetryDelay(1, null)).toBe(2000);
  });
});
