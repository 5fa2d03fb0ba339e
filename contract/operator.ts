import { type Static, Type } from 'typebox';

export const DayReport = Type.Object({
  day: Type.String(),
  status: Type.String({ description: 'done, waiting_funds or already_done' }),
  fixed: Type.Integer(),
  staticRows: Type.Integer(),
  rebates: Type.Integer(),
  released: Type.Integer(),
  matured: Type.Integer(),
  ended: Type.Integer(),
  shortfall: Type.Union([Type.String(), Type.Null()]),
  durationMs: Type.Integer(),
});

export const SettleBody = Type.Object({
  day: Type.Optional(Type.String({ format: 'date', description: 'A finished UTC day; omitted: everything due' })),
});
export type SettleBody = Static<typeof SettleBody>;

export const SettleData = Type.Object({ now: Type.String({ format: 'date-time' }), reports: Type.Array(DayReport) });
export type SettleData = Static<typeof SettleData>;

export const ClockAdvanceBody = Type.Object({
  days: Type.Integer({ minimum: 1, maximum: 400 }),
});
export type ClockAdvanceBody = Static<typeof ClockAdvanceBody>;
