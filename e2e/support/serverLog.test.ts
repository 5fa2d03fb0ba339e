import { describe, expect, it } from 'vitest';
import { troubleIn } from './serverLog.ts';

const line = (entry: object) => JSON.stringify({ level: 30, time: 1, pid: 1, hostname: 'vm', ...entry });

describe('troubleIn, what a journey prints of its server log when it fails', () => {
  it('names each refused call with its code, other failed answers, warnings and stray lines, and nothing that went well', () => {
    const log = [
      line({ reqId: 'req-1', req: { method: 'GET', url: '/api/home' }, msg: 'incoming request' }),
      line({ reqId: 'req-1', res: { statusCode: 200 }, msg: 'request completed' }),
      line({ reqId: 'req-2', req: { method: 'POST', url: '/api/product/buy' }, msg: 'incoming request' }),
      line({ reqId: 'req-2', code: 120, detail: { minimum: '100' }, msg: 'refused' }),
      line({ reqId: 'req-2', res: { statusCode: 200 }, msg: 'request completed' }),
      line({ reqId: 'req-3', req: { method: 'GET', url: '/api/nope' }, msg: 'incoming request' }),
      line({ reqId: 'req-3', res: { statusCode: 404 }, msg: 'request completed' }),
      line({ level: 40, msg: 'database unavailable' }),
      'TypeError: boom',
      '',
    ].join('\n');
    expect(troubleIn(log)).toEqual([
      'refused POST /api/product/buy with code 120 ({"minimum":"100"})',
      'answered GET /api/nope with 404',
      line({ level: 40, msg: 'database unavailable' }),
      'TypeError: boom',
    ]);
  });
});
