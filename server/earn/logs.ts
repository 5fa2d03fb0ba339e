import { formatUnits } from '../../contract/money.ts';
import type { Db } from '../db/connect.ts';
import { isCalendarDay } from '../platform/clock.ts';
import { gatheredCalls, idCursor, MAX_BIGINT } from '../platform/readCalls.ts';
import type { IncomeInputs } from '../../contract/income.ts';

/** The cursor's line, "day|orderId|kind"; anything else reads from the newest line. */
const CURSOR_RE = /^(\d{4}-\d{2}-\d{2})\|(\d{1,19})\|([a-z_]{1,40})$/;

type RewardLine = { order_id: bigint; day: string; kind: string; amount: bigint; inputs: IncomeInputs };

const rewardLogPage = gatheredCalls<RewardLine>('reward_log', ['bigint', 'text', 'date', 'bigint', 'text', 'int']);

/**
 * Income lines of a user, newest first; the cursor is "day|orderId|kind" of the last line. One call
 * of `reward_log` (rewardLogFunction.ts), gathered with the pages asked at once.
 */
export async function rewardLog(db: Db, userId: bigint, query: { kind?: string; cursor?: string; limit?: number }) {
  const limit = query.limit ?? 20;
  const cursor = CURSOR_RE.exec(query.cursor ?? '');
  const [, day, orderId, lineKind] = cursor && isCalendarDay(cursor[1] ?? '') ? cursor : [];
  // A kind no line has finds none: asked for as one that cannot be a line's.
  const kind = query.kind === undefined ? null : /^[a-z_]{1,20}$/.test(query.kind) ? query.kind : '';
  const rows = await rewardLogPage(db, userId, kind, day ?? null, orderId ? idCursor(orderId) : null, lineKind ?? null, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => ({
      orderId: String(r.order_id),
      day: r.day,
      kind: r.kind,
      amount: formatUnits(r.amount),
      inputs: r.inputs,
    })),
    nextCursor: rows.length > limit && last ? `${last.day}|${last.order_id}|${last.kind}` : null,
  };
}

const dailyIncomeOf = gatheredCalls<{ day: string; amount: bigint }>('daily_income', ['bigint', 'date', 'date']);

/** Income per day, every day of the window present (zero where nothing was earned): `daily_income`, gathered. */
export async function dailyIncome(db: Db, userId: bigint, from: string, to: string) {
  const rows = await dailyIncomeOf(db, userId, from, to);
  return rows.map((r) => ({ day: r.day, amount: formatUnits(r.amount) }));
}

/** A row of `user_log` (userLogFunction.ts): a posting with its journal entry. */
export type UserLogRow = {
  id: bigint;
  kind: string;
  ref: string | null;
  created_at: Date;
  asset: string;
  account: string;
  amount: bigint;
};

/** A posting as the user log shows it. */
export const userLogItem = (r: UserLogRow) => ({
  id: String(r.id),
  kind: r.kind,
  asset: r.asset,
  account: r.account,
  amount: formatUnits(r.amount),
  ref: r.ref,
  createdAt: r.created_at.toISOString(),
});

const userLogPage = gatheredCalls<UserLogRow>('user_log', ['bigint', 'bigint', 'text', 'int']);

/**
 * Every posting on the user's own accounts, newest first; cursor "entryId|account". One call of
 * `user_log` (userLogFunction.ts), gathered with the pages asked at once.
 */
export async function userLog(db: Db, userId: bigint, query: { cursor?: string; limit?: number }) {
  const limit = query.limit ?? 20;
  // Anything but "entryId|account" reads from the newest posting.
  const [, entryId, account] = /^(\d{1,19})\|([a-z_]{1,40})$/.exec(query.cursor ?? '') ?? [];
  const cursor = entryId && account ? { entry: idCursor(entryId), kind: account } : null;
  const rows = await userLogPage(db, userId, cursor?.entry ?? MAX_BIGINT, cursor?.kind ?? null, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(userLogItem),
    nextCursor: rows.length > limit && last ? `${last.id}|${last.account}` : null,
  };
}
