import { type Static, Type } from 'typebox';

/**
 * Rate history and advance notice: every version of each earn term (rates, quota, minimum,
 * the 360-day terms), the configured default first, with the day it took (or takes) effect
 * and when it was announced. Changes come with PARAM_NOTICE_DAYS of notice.
 */
export const RateVersion = Type.Object({
  name: Type.String({ description: 'Parameter name, e.g. earn.fixed30.daily_rate' }),
  value: Type.String(),
  effectiveDay: Type.Union([Type.String(), Type.Null()], { description: 'null: the configured default, in force since launch' }),
  scheduledAt: Type.Union([Type.String(), Type.Null()], { description: 'When the change was announced (UTC)' }),
  status: Type.Union([Type.Literal('past'), Type.Literal('in_force'), Type.Literal('upcoming')]),
});
export type RateVersion = Static<typeof RateVersion>;

export const RateHistoryData = Type.Object({
  today: Type.String({ description: "The server's UTC day" }),
  noticeDays: Type.Integer({ description: 'Changes to earn terms are scheduled at least this many days ahead' }),
  items: Type.Array(RateVersion),
});
export type RateHistoryData = Static<typeof RateHistoryData>;

/** A change announced for a product and not yet in force. */
export const UpcomingChange = Type.Union([
  Type.Object({ name: Type.String(), value: Type.String(), effectiveDay: Type.String() }),
  Type.Null(),
]);
export type UpcomingChange = Static<typeof UpcomingChange>;

/**
 * The effective day of a first version seeded from the configuration: in force since before
 * any day the platform settles, so every settled day has a stored version to be checked by.
 * Screens show it as the first version, "since launch", not as a day.
 */
export const FIRST_VERSION_DAY = '2000-01-01';

