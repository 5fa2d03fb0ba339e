import { sql } from 'kysely';
import type { Asset } from '../../contract/wallet.ts';
import type { Db } from '../db/connect.ts';
import { gatheredCalls } from '../platform/readCalls.ts';

/** One posting on a holder's account with its journal entry. */
export type MovementRow = {
  entry_id: bigint;
  asset: Asset;
  account: string;
  amount: bigint;
  entry_kind: string;
  ref: string | null;
  created_at: Date;
  /** The sum of the holder's postings of this asset in the entry: what it moved in or out (flows.ts). */
  entry_net: bigint;
};

/**
 * The holder's next postings after entry `after`, in (entry id, asset, account) order, ending
 * on a whole entry. No index beyond the postings' key is needed (each secondary index on
 * postings is paid at every settlement): the key (user_id, asset, kind, entry_id) already
 * orders each account by entry id, so each account of the holder gives its next `size`
 * postings by an index range scan, and the merge keeps the smallest `size`. Every posting up
 * to the last entry of the page is among them: an account that gave `size` postings ends at or
 * after that entry, and an account has at most one posting per entry. Settlement's postings are
 * the holder's income lines (`ledger_postings`): those of the next `size` entries that have any,
 * by a probe of each income partition's key (it starts with the holder), summed per entry and
 * account. One call of `movements_after` (functions.ts), gathered with the pages asked at once.
 */
export const movementsAfter: (db: Db, userId: bigint, after: bigint, size: number) => Promise<MovementRow[]> = gatheredCalls<MovementRow>(
  'movements_after',
  ['bigint', 'bigint', 'int'],
);

export type AccountTotals = { asset: Asset; account: string; opening: bigint; credits: bigint; debits: bigint };
/** An asset's month in the three flows that are not internal (flows.ts); with the opening they make the closing. */
export type AssetFlows = { asset: Asset; moneyIn: bigint; earnings: bigint; moneyOut: bigint };
export type Cursor = { entryId: bigint; asset: string; account: string };
export type MonthRange = { from: Date; to: Date; asset?: Asset | undefined };

/**
 * A holder's month: per account the balance before `from` and the credits and debits until `to`
 * (accounts of all zeros left out); per asset the month's flows; and the month's movements after
 * the cursor, at most `limit`, each with the sum of its account's movements so far. `rolled`:
 * read from the accounts' month figures rather than every posting (statement/functions.ts).
 */
export type HolderMonth = { rolled: boolean; totals: AccountTotals[]; flows: AssetFlows[]; movements: (MovementRow & { running: bigint })[] };

type Json<T> = { [K in keyof T]: T[K] extends bigint ? string : T[K] extends Date ? string : T[K] };
type FlowsJson = { asset: Asset; money_in: string; earnings: string; money_out: string };
type MonthJson = {
  user_id: bigint;
  rolled: boolean;
  totals: Json<AccountTotals>[] | null;
  flows: FlowsJson[] | null;
  movements: Columns<Json<MovementRow & { running: bigint }>> | null;
};
/** A page as one array per field, each in the same order; `place` is each movement's rank on the page. */
type Columns<T> = { [K in keyof T]: T[K][] } & { place: number[] };

/**
 * The months of several holders (same month, asset, cursor and page size), in one statement
 * (`monthly_statements`, statement/functions.ts, planned once per connection). `scan` reads every
 * posting even where the month figures would do, for the tests that compare the two.
 */
export async function holderMonths(
  db: Db,
  userIds: bigint[],
  range: MonthRange,
  cursor: Cursor | null,
  limit: number,
  scan = false,
): Promise<Map<bigint, HolderMonth>> {
  const { rows } = await sql<MonthJson>`
    select user_id, rolled, totals, flows, movements from monthly_statements(${userIds}::bigint[], ${range.from}::timestamptz,
      ${range.to}::timestamptz, ${range.asset ?? null}::text, ${cursor?.entryId ?? null}::bigint, ${cursor?.asset ?? null}::text,
      ${cursor?.account ?? null}::text, ${limit}::int, ${scan}::boolean)`.execute(db);
  return new Map(rows.map((r) => [r.user_id, holderMonthOf(r)]));
}

function holderMonthOf(r: MonthJson): HolderMonth {
  return {
    rolled: r.rolled,
    totals: (r.totals ?? []).map((t) => ({ ...t, opening: BigInt(t.opening), credits: BigInt(t.credits), debits: BigInt(t.debits) })),
    flows: (r.flows ?? []).map((f) => ({
      asset: f.asset,
      moneyIn: BigInt(f.money_in),
      earnings: BigInt(f.earnings),
      moneyOut: BigInt(f.money_out),
    })),
    movements: r.movements ? movementsOf(r.movements) : [],
  };
}

/** The page's movements from its columns, in their order on the page. */
function movementsOf(c: NonNullable<MonthJson['movements']>): HolderMonth['movements'] {
  const at = (i: number) => c.place[i] as number;
  const order = c.place.map((_, i) => i).sort((a, b) => at(a) - at(b));
  return order.map((i) => ({
    entry_id: BigInt(c.entry_id[i] as string),
    asset: c.asset[i] as Asset,
    account: c.account[i] as string,
    amount: BigInt(c.amount[i] as string),
    entry_kind: c.entry_kind[i] as string,
    ref: c.ref[i] ?? null,
    created_at: new Date(c.created_at[i] as string),
    running: BigInt(c.running[i] as string),
    entry_net: BigInt(c.entry_net[i] as string),
  }));
}
