import { STATEMENT_COLUMNS } from '../../contract/statement.ts';
import type { Db } from '../db/connect.ts';
import { type MovementRow, movementsAfter } from './repository.ts';
import { flowOf } from './flows.ts';
import { statementType } from './types.ts';

/** Postings read per query: one page of the export. */
const EXPORT_PAGE = 1000;

/** An amount with exactly 8 decimals and its sign ("-12.50000000"): exact, never a float. */
export function fixed8(value: bigint): string {
  const digits = (value < 0n ? -value : value).toString().padStart(9, '0');
  return `${value < 0n ? '-' : ''}${digits.slice(0, -8)}.${digits.slice(-8)}`;
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

/**
 * A movement's line. Only the reference is free text: the other fields are times, ids, amounts
 * and the server's own names, which need no quoting (a line per posting of a whole history).
 */
function movementLine(row: MovementRow, balanceAfter: bigint): string {
  const type = statementType(row.entry_kind, row.ref);
  const ref = row.ref === null ? '' : csvField(row.ref);
  return `${row.created_at.toISOString()},${row.entry_id},${type},${row.account},${row.asset},${fixed8(row.amount)},${fixed8(balanceAfter)},${ref},${flowOf(type, row.entry_net)}\r\n`;
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
