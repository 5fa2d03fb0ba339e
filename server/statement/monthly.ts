import { formatUnits } from '../../contract/money.ts';
import type { AssetStatement, MonthlyData, MonthlyQuery, Movement } from '../../contract/statement.ts';
import type { Asset } from '../../contract/wallet.ts';
import type { Db } from '../db/connect.ts';
import { AppError } from '../http/errors.ts';
import { flowOf } from './flows.ts';
import { gatheredByAsk } from '../platform/batch.ts';
import { perOwner } from '../platform/cache.ts';
import { type AccountTotals, type AssetFlows, type Cursor, type HolderMonth, holderMonths, type MonthRange, type MovementRow } from './repository.ts';
import { statementType } from './types.ts';

/** A page of movements, as every list of the app pages: a phone shows a few at a time, and scrolling asks for more. */
const MONTHLY_PAGE = 20;

/** A UTC month "YYYY-MM" as [first moment, first moment of the next month). */
function monthRange(month: string): { from: Date; to: Date } {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return { from: new Date(Date.UTC(year, mon - 1, 1)), to: new Date(Date.UTC(year, mon, 1)) };
}

const monthOf = (date: Date): string => date.toISOString().slice(0, 7);

const CURSOR_RE = /^(\d{1,19})\|(AIC|USDT)\|([a-z_]{1,40})$/;

function parseCursor(cursor: string | undefined): Cursor | null {
  if (!cursor) return null;
  const match = CURSOR_RE.exec(cursor);
  if (!match) throw new AppError('PARAM', 'cursor');
  return { entryId: BigInt(match[1] as string), asset: match[2] as string, account: match[3] as string };
}

function toMovement(row: MovementRow, balanceAfter: bigint): Movement {
  return {
    time: row.created_at.toISOString(),
    entryId: String(row.entry_id),
    type: statementType(row.entry_kind, row.ref),
    account: row.account,
    asset: row.asset,
    amount: formatUnits(row.amount),
    balanceAfter: formatUnits(balanceAfter),
    reference: row.ref,
    flow: flowOf(statementType(row.entry_kind, row.ref), row.entry_net),
  };
}

const totalsOf = (t: { opening: bigint; credits: bigint; debits: bigint }) => ({
  opening: formatUnits(t.opening),
  credits: formatUnits(t.credits),
  debits: formatUnits(t.debits),
  closing: formatUnits(t.opening + t.credits + t.debits),
});

/**
 * Per asset, summed over the holder's accounts: opening + money in + earnings + money out =
 * closing, exactly (`flows`: the entries that moved money between the holder and anyone else);
 * with each account's own figures, opening + credits + debits = closing. Accounts with nothing
 * before or during the month are not in `totals`.
 */
function byAsset(totals: AccountTotals[], flows: AssetFlows[]): AssetStatement[] {
  const assets = new Map<Asset, AccountTotals[]>();
  for (const t of totals) assets.set(t.asset, [...(assets.get(t.asset) ?? []), t]);
  return [...assets].map(([asset, accounts]) => {
    const sum = (pick: (t: AccountTotals) => bigint) => accounts.reduce((acc, t) => acc + pick(t), 0n);
    const opening = sum((t) => t.opening);
    const flow = flows.find((f) => f.asset === asset) ?? { moneyIn: 0n, earnings: 0n, moneyOut: 0n };
    return {
      asset,
      opening: formatUnits(opening),
      moneyIn: formatUnits(flow.moneyIn),
      earnings: formatUnits(flow.earnings),
      moneyOut: formatUnits(flow.moneyOut),
      closing: formatUnits(opening + sum((t) => t.credits) + sum((t) => t.debits)),
      accounts: accounts.map((t) => ({ account: t.account, ...totalsOf(t) })),
    };
  });
}

/** What holders asked for in the same moment share when their months are read together. */
type MonthAsk = { range: MonthRange; cursor: Cursor | null; limit: number };

/**
 * Months asked for in the same moment, gathered by what they share (month, asset, cursor, page
 * size): one statement for the holders of each.
 */
const monthsGathered = perOwner((db: Db) =>
  gatheredByAsk(
    (ids: bigint[], ask: MonthAsk) => holderMonths(db, ids, ask.range, ask.cursor, ask.limit),
    ({ range, cursor, limit }) =>
      [range.from.toISOString(), range.asset ?? '', cursor ? `${cursor.entryId}/${cursor.asset}/${cursor.account}` : '', limit].join('|'),
    (): HolderMonth => ({ rolled: false, totals: [], flows: [], movements: [] }),
  ),
);

/** The monthly statement: opening, the month's movements (a page), closing, per asset. */
export async function monthlyStatement(db: Db, userId: bigint, query: MonthlyQuery, now: Date): Promise<MonthlyData> {
  const month = query.month ?? monthOf(now);
  const { from, to } = monthRange(month);
  const limit = query.limit ?? MONTHLY_PAGE;
  const { totals, flows, movements: rows } = await monthsGathered(db)(userId, {
    range: { from, to, asset: query.asset },
    cursor: parseCursor(query.cursor),
    limit: limit + 1,
  });
  const opening = new Map(totals.map((t) => [`${t.asset}|${t.account}`, t.opening]));
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    month,
    from: from.toISOString(),
    to: to.toISOString(),
    assets: byAsset(totals, flows),
    movements: page.map((row) => toMovement(row, (opening.get(`${row.asset}|${row.account}`) ?? 0n) + row.running)),
    nextCursor: rows.length > limit && last ? `${last.entry_id}|${last.asset}|${last.account}` : null,
  };
}
