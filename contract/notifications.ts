import { type Static, Type } from 'typebox';

/**
 * What a notice is about. Texts live in the web app's languages (notifications.<kind>), filled
 * from `params`; the server stores only the kind and the figures.
 */
export const NoticeKind = Type.Union([
  Type.Literal('income'),
  Type.Literal('transfer_approved'),
  Type.Literal('transfer_rejected'),
  Type.Literal('member_bound'),
  Type.Literal('order_redeemable'),
  Type.Literal('order_ended'),
  Type.Literal('lockup_released'),
  Type.Literal('terms_change'),
  Type.Literal('new_device'),
  Type.Literal('order_renewed'),
  Type.Literal('money_in'),
  Type.Literal('subscribed'),
  Type.Literal('redeemed'),
  Type.Literal('claimed'),
]);

/** The holder's own money moves: told for the record, written read (they did it; no badge for it). */
export const OWN_MOVE_NOTICES = ['money_in', 'subscribed', 'redeemed', 'claimed'] as const satisfies readonly NoticeKind[];
export type NoticeKind = Static<typeof NoticeKind>;

const Id = Type.String({ pattern: '^\\d{1,19}$' });

export const Notice = Type.Object({
  id: Id,
  kind: NoticeKind,
  /**
   * income: day, total (AIC credited that day, all kinds; '0' when the day only unlocked network
   * income), unlocked (network income the day's lock-ups released, now claimable; only when some); transfer_*: id, type, asset, amount,
   * reason (rejected only); member_bound: member (the new member's nickname); order_redeemable
   * (a 30-day order's term is over): order, principal, income, and when its auto-renew was
   * refused, reason ('quota': the renewal would go over the day's subscription quota; 'minimum':
   * it is below the minimum subscription) and limit (that quota or minimum, AIC); order_renewed
   * (a 30-day order renewed itself at maturity): order, renewal (the new order), principal (the
   * new order's: the old principal plus its income), income (the old order's), day (the new
   * order's first day); order_ended (a 360-day order's term is over, its principal back in the
   * wallet): order, principal; lockup_released (before migration 0048; since, the day's income
   * notice tells it): day (of the network income locked), amount (now claimable); terms_change: name (the parameter), value, day (from when); new_device: browser,
   * os (as the user agent reads; '' unknown); money_in (a recharge or transfer in credited): id,
   * type, asset, amount; subscribed: order, product, amount; redeemed (all or part of an order
   * back in the wallet): order, product, amount; claimed: amount, what ('rewards': the 360-day
   * rewards; 'network': unlocked network income).
   */
  params: Type.Record(Type.String(), Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  read: Type.Boolean(),
});
export type Notice = Static<typeof Notice>;

/** GET /api/notifications: newest first, by cursor. */
export const NoticesQuery = Type.Object({
  cursor: Type.Optional(Id),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
});
export type NoticesQuery = Static<typeof NoticesQuery>;

export const NoticesData = Type.Object({
  items: Type.Array(Notice),
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: Type.Union([Id, Type.Null()]),
  unread: Type.Integer({ minimum: 0 }),
});
export type NoticesData = Static<typeof NoticesData>;

/** GET /api/notifications/unread */
export const UnreadData = Type.Object({ unread: Type.Integer({ minimum: 0 }) });
export type UnreadData = Static<typeof UnreadData>;

/** POST /api/notifications/read: one notice, or every one (`all`). */
export const ReadBody = Type.Union([
  Type.Object({ id: Id }, { additionalProperties: false }),
  Type.Object({ all: Type.Literal(true) }, { additionalProperties: false }),
]);
export type ReadBody = Static<typeof ReadBody>;
export const ReadData = Type.Object({ marked: Type.Integer({ minimum: 0 }), unread: Type.Integer({ minimum: 0 }) });
export type ReadData = Static<typeof ReadData>;
