import { isWellFormedInviteCode, normalizeInviteCode } from '../../contract/team.ts';
import type { Db } from '../db/connect.ts';
import { AppError } from '../http/errors.ts';

/**
 * A UID as a holder about to bind may see it: the first and last digits with a fixed run of
 * asterisks between, so neither the id nor its length is given away (1****7; a one-digit id ****7).
 */
export function maskUserId(id: bigint): string {
  const digits = id.toString();
  return digits.length === 1 ? `****${digits}` : `${digits[0]}****${digits.at(-1)}`;
}

export type Inviter = { id: bigint; name: string; code: string };

/**
 * The holder whose invitation code `rawCode` is, for `userId` to bind: refused as empty, as
 * one's own, as unknown (well formed, no holder has it) or as malformed (no holder could have
 * it). A stored code is looked up before its form is judged, so one that exists is never
 * refused for its form. Shared by the bind and the read that shows whose code it is.
 */
export async function findInviter(db: Db, userId: bigint, rawCode: string | undefined): Promise<Inviter> {
  const code = normalizeInviteCode(rawCode ?? '');
  if (!code) throw new AppError('INVITE_EMPTY');
  const row = await db.selectFrom('users').select(['id', 'name']).where('invite_code', '=', code).executeTakeFirst();
  if (!row) throw new AppError(isWellFormedInviteCode(code) ? 'INVITE_UNKNOWN' : 'INVITE_MALFORMED');
  if (row.id === userId) throw new AppError('INVITE_OWN');
  return { id: row.id, name: row.name, code };
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
