import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * Binds a superior's invitation code, once: not empty, known, not one's own, and not closing a
 * cycle (the superior may not sit in the user's own downline). Keeps the materialized paths.
 */
export async function bindInviter(
  trx: Transaction<Database>,
  userId: bigint,
  rawCode: string | undefined,
  at: Date,
): Promise<bigint> {
  const code = rawCode?.trim().toUpperCase() ?? '';
  if (!code) throw new AppError('INVITE_EMPTY');
  const inviter = await trx.selectFrom('users').select('id').where('invite_code', '=', code).executeTakeFirst();
  if (!inviter || inviter.id === userId) throw new AppError('INVITE_CODE', 'unknown or own code');
  // Both rows locked in id order: two people binding each other at once cannot make a cycle.
  const rows = await trx
    .selectFrom('users')
    .select(['id', 'inviter_id', 'path'])
    .where('id', 'in', [userId, inviter.id])
    .orderBy('id')
    .forUpdate()
    .execute();
  const me = rows.find((r) => r.id === userId);
  const superior = rows.find((r) => r.id === inviter.id);
  if (!me || !superior) throw new AppError('UNAUTHORIZED');
  if (me.inviter_id !== null) throw new AppError('INVITE_BOUND');
  if (superior.path.map(String).includes(String(userId))) throw new AppError('INVITE_CODE', 'would close a cycle');
  await trx.updateTable('users').set({ inviter_id: inviter.id, bound_at: at }).where('id', '=', userId).execute();
  // The user and the downline they may already have hang under the inviter's path now.
  await sql`
    update users set path = (select path || id from users where id = ${inviter.id}) || path
    where id = ${userId} or path @> array[${userId}]::bigint[]`.execute(trx);
  return inviter.id;
}
