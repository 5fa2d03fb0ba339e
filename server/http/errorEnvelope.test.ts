import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installErrorHandling } from './errors.ts';

describe('the error envelope', () => {
  it('is plain JSON even when the failing reply had chosen another type and an encoding', async () => {
    const app = Fastify();
    installErrorHandling(app);
    // As a static file does when the file fails after its headers were set (removed by a build as it is opened).
    app.get('/assets/a.js', async (_request, reply) => {
      reply.type('text/javascript; charset=utf-8').header('content-encoding', 'br');
      throw new Error('ENOENT: no such file or directory');
    });
    const failed = await app.inject({ url: '/assets/a.js' });
    expect(failed.statusCode).toBe(500);
    expect(failed.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(failed.headers['content-encoding']).toBeUndefined();
    expect(failed.json()).toMatchObject({ code: expect.any(Number), data: null });
    await app.close();
  });
});
