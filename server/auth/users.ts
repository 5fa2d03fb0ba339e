import { randomInt } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Invitation codes avoid look-alike characters (0/O, 1/I/L) so they can be read aloud. */
export const INVITE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const INVITE_LENGTH = 8;

function newInviteCode(): string {
  let code = '';
  for (let i = 0; i < INVITE_LENGTH; i++) code += INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)];
  return code;
}

export type User = { id: bigint; subject: string; name: string; inviteCode: string; inviterId: bigint | null };

const columns = ['id', 'subject', 'name', 'invite_code', 'inviter_id'] as const;
const toUser = (row: { id: bigint; subject: string; name: string; invite_code: string; inviter_id: bigint | null }): User => ({
  id: row.id,
  subject: row.subject,
  name: row.name,
  inviteCode: row.invite_code,
  inviterId: row.inviter_id,
});

/**
 * The user behind an exchange identity, created on first sign-in with an own invitation code.
 * Returns whether it was created, so first-time set-up (demo balances) runs once.
 */
export async function findOrCreateUser(
  trx: Transaction<Database>,
  subject: string,
  name: string,
): Promise<{ user: User; created: boolean }> {
  const existing = await trx.selectFrom('users').select(columns).where('subject', '=', subject).executeTakeFirst();
  if (existing) return { user: toUser(existing), created: false };
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await trx
      .insertInto('users')
      .values({ subject, name, invite_code: newInviteCode() })
      .onConflict((oc) => oc.doNothing())
      .returning(columns)
      .executeTakeFirst();
    if (row) return { user: toUser(row), created: true };
    // Either the subject raced in from another request, or the code was taken: look again.
    const raced = await trx.selectFrom('users').select(columns).where('subject', '=', subject).executeTakeFirst();
    if (raced) return { user: toUser(raced), created: false };
  }
  throw new Error('could not allocate an invitation code');
}
