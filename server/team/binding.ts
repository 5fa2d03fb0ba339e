import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * Binds a superior's invitation code, once: not empty, known, not one's own, and not closing a
 * cycle (the superior may not sit in the user's own downline).
 */
export async function bindInviter(trx: Transaction<Database>, userId: bigint, rawCode: string | undefined): Promise<bigint> {
  const code = rawCode?.trim().toUpperCase() ?? '';
  if (!code) throw new AppError('INVITE_EMPTY');
  const me = await trx.selectFrom('users').select(['inviter_id']).where('id', '=', userId).forUpdate().executeTakeFirst();
  if (!me) throw new AppError('UNAUTHORIZED');
  if (me.inviter_id !== null) throw new AppError('INVITE_BOUND');
  const inviter = await trx.selectFrom('users').select('id').where('invite_code', '=', code).executeTakeFirst();
  if (!inviter || inviter.id === userId) throw new AppError('INVITE_CODE', 'unknown or own code');
  const { rows } = await sql<{ found: boolean }>`
    with recursive upline(id, inviter_id, depth) as (
      select id, inviter_id, 1 from users where id = ${inviter.id}
      union all
      select u.id, u.inviter_id, up.depth + 1 from users u join upline up on u.id = up.inviter_id
      where up.depth < 10000
    )
    select exists (select 1 from upline where id = ${userId}) as found`.execute(trx);
  if (rows[0]?.found) throw new AppError('INVITE_CODE', 'would close a cycle');
  await trx.updateTable('users').set({ inviter_id: inviter.id }).where('id', '=', userId).execute();
  return inviter.id;
}
