import { readQuery, storedParams } from './firstLoad.ts';
import { storage } from './storage.ts';

/** An invite code to prefill: from the current address, else from the kept urlParams. */
export function presetInviteCode(href = location.href): string {
  return readQuery(href).get('inviteCode') ?? storedParams(storage).inviteCode ?? '';
}
