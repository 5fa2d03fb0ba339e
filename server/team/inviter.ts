import { isWellFormedInviteCode, normalizeInviteCode } from '../../contract/team.ts';
import type { Db } from '../db/connect.ts';
import { AppError } from '../http/errors.ts';
import { gatheredCalls } from '../platform/readCalls.ts';

/**
 * A UID as a holder about to bind may see it: the first and last digits with a fixed run of
 * asterisks between, so neither the id nor its length is given away (1****7; a one-digit id ****7).
 */
export function maskUserId(id: bigint): string {
  const digits = id.toString();
  return digits.length === 1 ? `****${digits}` : `${digits[0]}****${digits.at(-1)}`;
}

export type Inviter = { id: bigint; name: string; code: string };

type Holder = { id: bigint; name: string };

/** A code judged as `findInviter` says, `lookUp` finding the holder of the normalized code. */
async function judgeCode(userId: bigint, rawCode: string | undefined, lookUp: (code: string) => Promise<Holder | undefined>): Promise<Inviter> {
  const code = normalizeInviteCode(rawCode ?? '');
  if (!code) throw new AppError('INVITE_EMPTY');
  const row = await lookUp(code);
  if (!row) throw new AppError(isWellFormedInviteCode(code) ? 'INVITE_UNKNOWN' : 'INVITE_MALFORMED');
  if (row.id === userId) throw new AppError('INVITE_OWN');
  return { id: row.id, name: row.name, code };
}

/**
 * The holder whose invitation code `rawCode` is, for `userId` to bind: refused as empty, as
 * one's own, as unknown (well formed, no holder has it) or as malformed (no holder could have
 * it). A stored code is looked up before its form is judged, so one that exists is never
 * refused for its form. The bind's, inside its transaction; `showInviter` is the read's.
 */
export async function findInviter(db: Db, userId: bigint, rawCode: string | undefined): Promise<Inviter> {
  return judgeCode(userId, rawCode, (code) => db.selectFrom('users').select(['id', 'name']).where('invite_code', '=', code).executeTakeFirst());
}

const inviterByCode = gatheredCalls<Holder>('inviter_by_code', ['text']);

/**
 * `findInviter` for the read that shows whose code it is (GET /api/user/inviter): the look-up is
 * one call of `inviter_by_code` (listFunctions.ts), gathered with those asked at once. A code
 * holding NUL is refused as PostgreSQL refused it when it was looked up alone (PARAM), before
 * the call, which would fail the calls of its turn.
 */
export async function showInviter(db: Db, userId: bigint, rawCode: string | undefined): Promise<Inviter> {
  return judgeCode(userId, rawCode, async (code) => {
    if (code.includes('\u0000')) throw new AppError('PARAM', 'an invitation code holds NUL');
    return (await inviterByCode(db, code))[0];
  });
}

/**
 * The platform's code (DEFAULT_INVITE_CODE) when it is worth offering to `userId`: set, held by
 * a holder (it may name an account not made yet), and not the caller's own.
 */
export async function platformInviteCode(db: Db, userId: bigint, code: string | undefined): Promise<string | null> {
  if (!code) return null;
  const row = await db.selectFrom('users').select('id').where('invite_code', '=', code).executeTakeFirst();
  return row && row.id !== userId ? code : null;
}
