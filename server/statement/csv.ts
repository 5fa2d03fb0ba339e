import { formatUnits } from '../../contract/money.ts';
import { STATEMENT_COLUMNS } from '../../contract/statement.ts';
import type { Db } from '../db/connect.ts';
import { type MovementRow, movementsAfter } from './repository.ts';
import { flowOf } from './flows.ts';
import { statementType } from './types.ts';

/** Postings read per query: one page of the export. */
const EXPORT_PAGE = 1000;

/** An amount with exactly 8 decimals and its sign ("-12.50000000"): exact, never a float. */
export function fixed8(value: bigint): string {
  const [whole, fraction = ''] = formatUnits(value).split('.');
  return `${whole}.${fraction.padEnd(8, '0')}`;
}

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export const csvLine = (fields: readonly string[]): string => `${fields.map(csvField).join(',')}\r\n`;

/** Running balances per account ("asset|account"), summed from the postings in order. */
class RunningBalances {
  private readonly balances = new Map<string, bigint>();
  add(row: { asset: string; account: string; amount: bigint }): bigint {
    const key = `${row.asset}|${row.account}`;
    const next = (this.balances.get(key) ?? 0n) + row.amount;
    this.balances.set(key, next);
    return next;
  }
}

function movementLine(row: MovementRow, balanceAfter: bigint): string {
  const type = statementType(row.entry_kind, row.ref);
  return csvLine([
    row.created_at.toISOString(),
    String(row.entry_id),
    type,
    row.account,
    row.asset,
    fixed8(row.amount),
    fixed8(balanceAfter),
    row.ref ?? '',
    flowOf(type, row.entry_net),
  ]);
}

/**
 * The holder's whole history as CSV, a page at a time: each page is its own short query
 * (keyset on the entry id), read only when the reply has room for more, so neither the
 * server's memory nor a database connection is held by a long or slow download.
 */
export async function* statementCsv(db: Db, userId: bigint, pageSize = EXPORT_PAGE): AsyncGenerator<string> {
  yield csvLine(STATEMENT_COLUMNS);
  const balances = new RunningBalances();
  let after = 0n;
  for (;;) {
    const rows = await movementsAfter(db, userId, after, pageSize);
    const last = rows.at(-1);
    if (!last) return;
    yield rows.map((row) => movementLine(row, balances.add(row))).join('');
    // A short page is the last: asking again would only read nothing.
    if (rows.length < pageSize) return;
    after = last.entry_id;
  }
}
