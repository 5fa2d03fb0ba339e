import { describe, expect, it } from 'vitest';
import { ERRORS, httpStatusForCode, messageKeyForCode, messageKeyForHttpStatus, NO_ANSWER } from './errors.ts';

describe('error catalogue', () => {
  it('gives every code one meaning', () => {
    const codes = Object.values(ERRORS).map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('maps the spec envelope codes to their messages', () => {
    expect(messageKeyForCode(401)).toBe('a11');
    expect(messageKeyForCode(403)).toBe('a12');
    expect(messageKeyForCode(404)).toBe('a13');
    expect(messageKeyForCode(408)).toBe('a14');
    expect(messageKeyForCode(500)).toBe('a10');
    expect(messageKeyForCode(501)).toBe('a15');
    expect(messageKeyForCode(502)).toBe('a16');
    expect(messageKeyForCode(503)).toBe('a17');
    expect(messageKeyForCode(504)).toBe('a18');
    expect(messageKeyForCode(505)).toBe('a19');
    expect(messageKeyForCode(103)).toBe('a4');
    expect(messageKeyForCode(110)).toBe('a21');
    expect(messageKeyForCode(102)).toBe('a3');
    expect(messageKeyForCode(300)).toBe('a9');
  });

  it('gives each a-message of the spec a producer: a code, or the client with no answer (a0, a7)', () => {
    const produced = new Set<string>([...Object.values(ERRORS).map((e) => e.message), NO_ANSWER.offline, NO_ANSWER.timeout]);
    for (let i = 0; i <= 21; i++) expect(produced.has(`a${i}`), `a${i}`).toBe(true);
  });

  it('gives unknown codes the generic error', () => {
    expect(messageKeyForCode(999)).toBe('err.generic');
    expect(messageKeyForCode(-1)).toBe('err.generic');
  });

  it('maps HTTP-level failures the same way, and no answer to a0', () => {
    expect(messageKeyForHttpStatus(0)).toBe('a0');
    expect(messageKeyForHttpStatus(401)).toBe('a11');
    expect(messageKeyForHttpStatus(502)).toBe('a16');
    expect(messageKeyForHttpStatus(418)).toBe('err.generic');
    expect(messageKeyForHttpStatus(100)).toBe('err.generic');
  });

  it('sends each failure with a fitting HTTP status', () => {
    expect(httpStatusForCode(ERRORS.PARAM.code)).toBe(400);
    expect(httpStatusForCode(ERRORS.UNAUTHORIZED.code)).toBe(401);
    // A busy server (load shedding, a read past its time limit) is a 503 of its own code.
    expect(httpStatusForCode(ERRORS.SERVER_BUSY.code)).toBe(503);
    expect(messageKeyForCode(ERRORS.SERVER_BUSY.code)).toBe('err.serverBusy');
    expect(httpStatusForCode(12345)).toBe(500);
  });
});
