import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outcomeOf, transport } from './transport.ts';

/** A local server whose paths answer, stall, or send half an answer. */
let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/ok') {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ code: 0, msg: 'ok', data: { n: 1 } }));
    } else if (request.url === '/half') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"code":0,');
    } else if (request.url === '/gateway') {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<h1>Bad Gateway</h1>');
    }
    // '/stall': never answers.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the client with no answer (spec section 8: a0, a7)', () => {
  it('a0: no connection at all', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const answer = await transport(`http://127.0.0.1:${port}/api/home`, {});
    expect(answer).toEqual({ noAnswer: 'a0' });
    expect(outcomeOf(answer)).toEqual({ ok: false, code: 0, key: 'a0', msg: null });
  });

  it('a7: no answer within the timeout', async () => {
    const answer = await transport(`${base}/stall`, {}, null, 100);
    expect(answer).toEqual({ noAnswer: 'a7' });
    expect(outcomeOf(answer)).toMatchObject({ ok: false, code: 0, key: 'a7' });
  });

  it('a7: an answer whose body stops half way', async () => {
    expect(await transport(`${base}/half`, {}, null, 150)).toEqual({ noAnswer: 'a7' });
  });

  it('a call the caller cancels rethrows, so nothing is shown', async () => {
    const caller = new AbortController();
    const pending = transport(`${base}/stall`, {}, caller.signal, 5_000);
    caller.abort();
    await expect(pending).rejects.toThrow();
  });

  it('a call the caller cancels while its body arrives rethrows too, so no generic error is shown', async () => {
    const caller = new AbortController();
    const pending = transport(`${base}/half`, {}, caller.signal, 5_000);
    // The headers are in, the body never ends: cancel while it is being read.
    await new Promise((resolve) => setTimeout(resolve, 200));
    caller.abort();
    await expect(pending).rejects.toThrow();
  });

  it('an answer in time is read whole', async () => {
    const answer = await transport(`${base}/ok`, {}, null, 1_000);
    expect(outcomeOf(answer)).toEqual({ ok: true, data: { n: 1 } });
  });

  it('an HTTP failure without an envelope maps its status (502 to a16)', async () => {
    expect(outcomeOf(await transport(`${base}/gateway`, {}))).toEqual({ ok: false, code: 502, key: 'a16', msg: null });
  });
});

describe('answers to messages (spec section 8)', () => {
  const envelope = (status: number, code: number) => ({ status, ok: status < 400, body: { code, msg: 'server text', data: null } });

  it.each([
    [400, 100, 'a1'], [422, 101, 'a2'], [422, 102, 'a3'], [422, 103, 'a4'], [409, 104, 'a5'], [422, 105, 'a6'],
    [422, 106, 'a20'], [422, 110, 'a21'], [422, 300, 'a9'], [400, 400, 'a8'], [401, 401, 'a11'], [403, 403, 'a12'],
    [404, 404, 'a13'], [408, 408, 'a14'], [500, 500, 'a10'], [501, 501, 'a15'], [502, 502, 'a16'], [503, 503, 'a17'],
    [504, 504, 'a18'], [505, 505, 'a19'], [200, 777, 'err.generic'],
  ])('HTTP %i with envelope code %i shows %s', (status, code, key) => {
    expect(outcomeOf(envelope(status, code))).toEqual({ ok: false, code, key, msg: 'server text' });
  });

  it.each([
    [400, 'a8'], [401, 'a11'], [403, 'a12'], [404, 'a13'], [408, 'a14'], [500, 'a10'], [501, 'a15'], [502, 'a16'],
    [503, 'a17'], [504, 'a18'], [505, 'a19'], [418, 'err.generic'],
  ])('HTTP %i without an envelope shows %s', (status, key) => {
    expect(outcomeOf({ status, ok: false, body: null })).toEqual({ ok: false, code: status, key, msg: null });
  });

  it('code 0 in a 2xx answer is success', () => {
    expect(outcomeOf(envelope(200, 0))).toEqual({ ok: true, data: null });
  });
});
