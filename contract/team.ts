import { type Static, Type } from 'typebox';
import { AmountString } from './envelope.ts';

export const InviteRecordsQuery = Type.Object({
  /** Only invitees who bound inside [from, to) (the recruitment activity's window, say). */
  from: Type.Optional(Type.String({ format: 'date-time', maxLength: 40 })),
  to: Type.Optional(Type.String({ format: 'date-time', maxLength: 40 })),
  cursor: Type.Optional(Type.String({ pattern: '^\\d{1,19}$' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});
export type InviteRecordsQuery = Static<typeof InviteRecordsQuery>;

/** One direct invitee and their branch (figures as of the last settled day). */
const InviteRecord = Type.Object({
  userId: Type.String({ description: 'UID' }),
  name: Type.String(),
  level: Type.Integer({ minimum: 0, maximum: 5 }),
  effective: Type.Boolean(),
  subscription: AmountString,
  teamQuantity: AmountString,
  teamCount: Type.Integer(),
  /** Rebates the signed-in user has earned from this branch. */
  rebate: AmountString,
  joinedAt: Type.String({ format: 'date-time' }),
});
export const InviteRecordsData = Type.Object({
  items: Type.Array(InviteRecord),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type InviteRecordsData = Static<typeof InviteRecordsData>;

export const UnlockTier = Type.Object({ holding: AmountString, percent: Type.String() });

/** GET /api/user/zero-profit: network income, claimable and locked. */
export const ZeroProfitData = Type.Object({
  claimable: AmountString,
  locked: AmountString,
  pendingUnlock: AmountString,
  nextUnlockDay: Type.Union([Type.String(), Type.Null()]),
  nextUnlockAmount: AmountString,
  held: AmountString,
  unlockPercent: Type.String({ description: 'Share of network income the current holding unlocks' }),
  tiers: Type.Array(UnlockTier),
  lockupDays: Type.Integer(),
});
export type ZeroProfitData = Static<typeof ZeroProfitData>;

export const ZeroLogQuery = Type.Object({
  cursor: Type.Optional(Type.String({ format: 'date', maxLength: 10 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});
export const ZeroLogData = Type.Object({
  items: Type.Array(
    Type.Object({
      day: Type.String(),
      amount: AmountString,
      unlockable: AmountString,
      unlockPercent: Type.String(),
      unlockDay: Type.String(),
      releasedOn: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type ZeroLogData = Static<typeof ZeroLogData>;

const Earnings = Type.Object({
  today: AmountString,
  yesterday: AmountString,
  cumulative: AmountString,
  static: AmountString,
  dynamic: AmountString,
  claimableReward: AmountString,
  claimableNetwork: AmountString,
  claimableFixed: AmountString,
});

/** GET /api/user/info */
export const UserInfoData = Type.Object({
  userId: Type.String(),
  name: Type.String(),
  inviteCode: Type.String({ description: 'The user’s own invitation code' }),
  inviterBound: Type.Boolean(),
  inviterCode: Type.Union([Type.String(), Type.Null()], { description: 'The superior’s referral code' }),
  isOperator: Type.Boolean(),
  level: Type.Integer({ minimum: 0, maximum: 5 }),
  effective: Type.Boolean(),
  held: AmountString,
  teamQuantity: AmountString,
  teamCount: Type.Integer(),
  directCount: Type.Integer(),
  earnings: Earnings,
});
export type UserInfoData = Static<typeof UserInfoData>;

/**
 * How invitation codes are made (server/auth/users.ts): 8 characters of an alphabet without
 * look-alikes (0/O, 1/I/L), so a code read aloud or copied by hand comes out the same.
 */
export const INVITE_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const INVITE_CODE_LENGTH = 8;
const WELL_FORMED = new RegExp(`^[${INVITE_CODE_ALPHABET}]{${INVITE_CODE_LENGTH}}$`);

/** A code as typed, as it is compared: spaces around it dropped, letters in capitals. */
export const normalizeInviteCode = (raw: string): string => raw.trim().toUpperCase();

/** Whether a normalized code is one the server could have made (else no holder can have it). */
export const isWellFormedInviteCode = (code: string): boolean => WELL_FORMED.test(code);

/** GET /api/user/inviter: whose invitation code this is, before it is bound for good. */
export const InviterQuery = Type.Object({ code: Type.String({ maxLength: 40 }) });
export const InviterData = Type.Object({
  code: Type.String({ description: 'The code, normalized (capitals, no spaces around)' }),
  name: Type.String({ description: 'The inviter’s display name' }),
  maskedUserId: Type.String({ description: 'The inviter’s UID, only its first and last digits shown (1****7)' }),
});
export type InviterData = Static<typeof InviterData>;

/** GET /api/user/platform-invite-code: the operator's platform code (DEFAULT_INVITE_CODE) to offer. */
export const PlatformInviteCodeData = Type.Object({
  code: Type.Union([Type.String(), Type.Null()], {
    description: 'DEFAULT_INVITE_CODE when it is set, a holder has it and it is not the caller’s own; else null',
  }),
});
export type PlatformInviteCodeData = Static<typeof PlatformInviteCodeData>;
