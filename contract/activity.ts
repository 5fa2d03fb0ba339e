import { type Static, Type } from 'typebox';
import { AmountString } from './envelope.ts';
import { UnlockTier } from './team.ts';

/**
 * The recruitment activity (spec section 9): a network activity of some days, then an
 * assessment period; its dates come from the server's configuration.
 */
export const ActivityPhase = Type.Union([
  Type.Literal('before'),
  Type.Literal('activity'),
  Type.Literal('assessment'),
  Type.Literal('ended'),
]);
export type ActivityPhase = Static<typeof ActivityPhase>;

/** A period as UTC days: its first day and its last day (both inclusive). */
const Period = Type.Object({
  firstDay: Type.String({ format: 'date' }),
  lastDay: Type.String({ format: 'date' }),
  days: Type.Integer({ minimum: 0 }),
});

/** GET /api/activity: the phase, the holder's and the team's figures inside the activity, the unlock progress. */
export const ActivityData = Type.Object({
  phase: ActivityPhase,
  /** When the current phase began (null before the activity) and ends (null once over). */
  phaseStartsAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  phaseEndsAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** Seconds until the current phase ends (null once over). */
  secondsLeft: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  activity: Period,
  assessment: Period,
  /** The holder inside the activity window: subscriptions now, invitees as of the team's `asOf`. */
  own: Type.Object({
    subscribed: AmountString,
    directInvites: Type.Integer({ minimum: 0 }),
    directEffective: Type.Integer({ minimum: 0 }),
  }),
  /**
   * The whole downline inside the activity window, as of the last settled day (`asOf`, null
   * before the first): the figures are rolled up as the day settles, like the team's own.
   */
  team: Type.Object({
    newMembers: Type.Integer({ minimum: 0 }),
    newEffective: Type.Integer({ minimum: 0 }),
    quantityAdded: AmountString,
    asOf: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
  }),
  /** Progress toward the network income unlock tiers: own AIC held in active orders now. */
  unlock: Type.Object({
    held: AmountString,
    unlockPercent: Type.String(),
    tiers: Type.Array(UnlockTier),
    lockupDays: Type.Integer(),
  }),
});
export type ActivityData = Static<typeof ActivityData>;
