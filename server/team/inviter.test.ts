import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, type ErrorName } from '../../contract/errors.ts';
import { PATHS } from '../../contract/paths.ts';
import { INVITE_CODE_ALPHABET, isWellFormedInviteCode } from '../../contract/team.ts';
import { INVITE_ALPHABET } from '../auth/users.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, post, signIn } from '../test/signIn.ts';
import { maskUserId } from './inviter.ts';

describe('the masked UID and the form of a code', () => {
  it('shows only the first and last digits, with a run of asterisks that says nothing of the length', () => {
    expect(maskUserId(1n)).toBe('****1');
    expect(maskUserId(17n)).toBe('1****7');
    expect(maskUserId(1234567n)).toBe('1****7');
    expect(maskUserId(9_007_199_254_740_993n)).toBe('9****3');
  });

  it('judges the form by how codes are made: 8 characters of the alphabet without look-alikes', () => {
    expect(INVITE_CODE_ALPHABET).toBe(INVITE_ALPHABET);
    expect(isWellFormedInviteCode('ZZZZ2222')).toBe(true);
    for (const code of ['ABCD', 'ABCD23456', 'OPERATOR', 'ABCD2341', 'abcd2345', 'ABCD 234']) expect(isWellFormedInviteCode(code), code).toBe(false);
  });
});

describe.each(DATABASES)('whose invitation code, and the bind refusing each wrong code by its own error, on %s', (kind) => {
  let t: TestApp;
  const people: Record<string, { token: string; userId: string; code: string }> = {};

  const lookUp = (who: string, code: string) =>
    t.app.inject({ url: PATHS.inviter, query: { code }, headers: bearer(people[who]?.token as string) }).then((r) => ({ status: r.statusCode, body: r.json() }));
  const bind = (who: string, inviteCode: string) =>
    post(t.app, PATHS.bindInviter, people[who]?.token as string, { inviteCode }).then((r) => ({ status: r.statusCode, body: r.json() }));
  const refused = (name: ErrorName) => ({ status: ERRORS[name].http, code: ERRORS[name].code });

  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false });
    for (const name of ['Olga', 'Hana', 'Ivo', 'Jon']) {
      const { token, userId } = await signIn(t.app, { name });
      const code = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(token) })).json().data.inviteCode as string;
      people[name] = { token, userId, code };
    }
  });
  afterAll(() => t?.close());

  it('answers the display name and the masked UID, and nothing else, for a code typed loosely', async () => {
    const olga = people.Olga as { userId: string; code: string };
    expect(isWellFormedInviteCode(olga.code)).toBe(true);
    const { status, body } = await lookUp('Hana', `  ${olga.code.toLowerCase()} `);
    expect(status).toBe(200);
    expect(body).toEqual({ code: 0, msg: 'success', data: { code: olga.code, name: 'Olga', maskedUserId: maskUserId(BigInt(olga.userId)) } });
    expect(JSON.stringify(body)).not.toContain(`"${olga.userId}"`);
  });

  it('refuses one’s own code, an unknown code and a malformed code, each with its own error', async () => {
    const cases: [string, ErrorName][] = [
      [people.Hana?.code as string, 'INVITE_OWN'],
      ['ZZZZ2222', 'INVITE_UNKNOWN'],
      ['abcd', 'INVITE_MALFORMED'],
      ['OPERATOR', 'INVITE_MALFORMED'],
      ['   ', 'INVITE_EMPTY'],
    ];
    for (const [code, name] of cases) {
      const read = await lookUp('Hana', code);
      expect({ status: read.status, code: read.body.code }, `read ${code}`).toEqual(refused(name));
      const bound = await bind('Hana', code);
      expect({ status: bound.status, code: bound.body.code }, `bind ${code}`).toEqual(refused(name));
    }
    // Three codes, three messages (and none of them the spec's catch-all a2).
    const messages = await Promise.all(['ZZZZ2222', 'abcd', people.Hana?.code as string].map(async (code) => (await lookUp('Hana', code)).body.msg));
    expect(new Set(messages).size).toBe(3);
    expect(messages).toEqual([
      'No holder has this invitation code. Check it with your inviter.',
      'Not an invitation code: a code is 8 letters and digits.',
      "That is your own invitation code. Enter your inviter's code.",
    ]);
    // Nothing was bound by any of them.
    expect((await t.app.inject({ url: PATHS.userInfo, headers: bearer(people.Hana?.token as string) })).json().data.inviterBound).toBe(false);
  });

  it('is for signed-in holders only, and counted with the other GETs', async () => {
    expect((await t.app.inject({ url: PATHS.inviter, query: { code: 'ZZZZ2222' } })).json().code).toBe(ERRORS.UNAUTHORIZED.code);
    expect((await t.app.inject({ url: PATHS.platformInviteCode })).json().code).toBe(ERRORS.UNAUTHORIZED.code);
    const limited = await startTestApp(kind, { seed: false, config: { rateLimitGetsPerMinute: 3 } });
    try {
      const { token } = await signIn(limited.app, { name: 'Kim' });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await limited.app.inject({ url: PATHS.inviter, query: { code: 'ZZZZ2222' }, headers: bearer(token) })).statusCode);
      expect(statuses).toEqual([422, 422, 422, 429]);
    } finally {
      await limited.close();
    }
  });

  it('binds a valid code as before, refuses a cycle with 101, and a second bind with 104', async () => {
    const ivo = people.Ivo as { code: string };
    expect(await bind('Jon', ivo.code.toLowerCase())).toMatchObject({ status: 200, body: { code: 0, data: { inviterCode: ivo.code } } });
    const jonInfo = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(people.Jon?.token as string) })).json().data;
    expect(jonInfo).toMatchObject({ inviterBound: true, inviterCode: ivo.code });
    // Jon sits below Ivo: Ivo binding Jon's code would close a cycle (what is left of a2).
    const cycle = await bind('Ivo', people.Jon?.code as string);
    expect({ status: cycle.status, code: cycle.body.code }).toEqual(refused('INVITE_CODE'));
    expect(cycle.body.msg).toBe('Invitation code error');
    const again = await bind('Jon', people.Olga?.code as string);
    expect({ status: again.status, code: again.body.code }).toEqual(refused('INVITE_BOUND'));
  });

  it('offers the platform code when it is set, a holder has it, and it is not the caller’s own', async () => {
    const platform = async (who: string) =>
      (await t.app.inject({ url: PATHS.platformInviteCode, headers: bearer(people[who]?.token as string) })).json().data.code;
    t.ctx.config.defaultInviteCode = undefined;
    expect(await platform('Hana')).toBeNull();
    // Set, but no account holds it yet (the operator's may be made after the start).
    t.ctx.config.defaultInviteCode = 'ZZZZ2222';
    expect(await platform('Hana')).toBeNull();
    t.ctx.config.defaultInviteCode = people.Olga?.code;
    expect(await platform('Hana')).toBe(people.Olga?.code);
    expect(await platform('Olga')).toBeNull();
    t.ctx.config.defaultInviteCode = undefined;
  });
});
