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
