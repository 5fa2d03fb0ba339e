import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { notify } from '../notify/notices.ts';
import { findInviter } from './inviter.ts';
import { ancestry, lockTree, rewritePaths } from './tree.ts';

/**
 * Binds a superior's invitation code, once: not empty, well formed, known, not one's own
 * (findInviter refuses each with its own error), and not closing a cycle (the superior may not
 * sit in the user's own downline). Binds run one at a time (the tree lock) and read the tree as
 * committed, walking `inviter_id` rather than trusting stored paths, so no interleaving of
 * concurrent binds can close a cycle or leave a stale path.
 */
export async function bindInviter(
  trx: Transaction<Database>,
  userId: bigint,
  rawCode: string | undefined,
  at: Date,
): Promise<bigint> {
  if (!rawCode?.trim()) throw new AppError('INVITE_EMPTY');
  await lockTree(trx);
  const inviter = await findInviter(trx, userId, rawCode);
  const me = await trx.selectFrom('users').select(['inviter_id', 'name']).where('id', '=', userId).executeTakeFirst();
  if (!me) throw new AppError('UNAUTHORIZED');
  if (me.inviter_id !== null) throw new AppError('INVITE_BOUND');
  const above = await ancestry(trx, inviter.id);
  if (above.cycle || above.ids.includes(userId)) throw new AppError('INVITE_CODE', 'would close a cycle');
  await trx.updateTable('users').set({ inviter_id: inviter.id, bound_at: at }).where('id', '=', userId).execute();
  // The user and the downline they may already have hang under the inviter's chain now.
  await rewritePaths(trx, userId, [...above.ids.reverse(), inviter.id]);
  await notify(trx, { userId: inviter.id, kind: 'member_bound', key: `member:${userId}`, params: { member: me.name }, at });
  return inviter.id;
}

/**
 * An operator's way out of a cycle found in the stored tree (the tree check reports it; it
 * cannot be repaired silently): the holder, who must be on the cycle, loses their inviter and
 * becomes a root, and their downline's paths are written from them. The caller audits it.
 */
export async function unbindFromCycle(
  trx: Transaction<Database>,
  userId: bigint,
): Promise<{ formerInviter: bigint; cycle: bigint[]; pathsRewritten: number }> {
  await lockTree(trx);
  const me = await trx.selectFrom('users').select(['inviter_id', 'name']).where('id', '=', userId).executeTakeFirst();
  if (!me) throw new AppError('NOT_FOUND');
  const above = await ancestry(trx, userId);
  if (me.inviter_id === null || !above.onCycle) throw new AppError('NOT_IN_CYCLE');
  await trx.updateTable('users').set({ inviter_id: null, bound_at: null }).where('id', '=', userId).execute();
  const pathsRewritten = await rewritePaths(trx, userId, []);
  return { formerInviter: me.inviter_id, cycle: [userId, ...above.ids], pathsRewritten };
}
