import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';

/**
 * A part of a step's holders. Parts by holder share no income line, order, account, posting or
 * lock-up, so a step's parts can be paid side by side on separate connections, each exactly
 * once; only the paying system account's balance is written by every part, one after the other
 * (the ledger's batch form takes its lock last). Two ways to cut them:
 *
 * - `{ index, of }`: the holders whose id hashes to `index` modulo `of`. For the rebates: the
 *   oldest holders receive the most, and in bench/day's tree even ids more than odd ones, so a
 *   range or a parity of ids would split the work unevenly. The hash is PostgreSQL's own, the
 *   same in every run of a day.
 * - `{ from, below }`: the holders with ids from `from` up to, not including, `below` (null: no
 *   bound on that side). For the steps paying orders (`holderRanges`): a part's orders are then a
 *   range of an index, and its holders' accounts sit together in the table, where a hash spread
 *   each part over every page of both.
 */
export type HashPart = { index: number; of: number };
export type Part = HashPart | { from: bigint | null; below: bigint | null };

/** Every holder: a step paid in one piece. */
export const WHOLE: HashPart = { index: 0, of: 1 };

/** Whether the holder id `column` (a trusted SQL column reference) falls in `part`. */
export function inPart(column: string, part: Part) {
  const id = sql.ref(column);
  if ('of' in part) return part.of === 1 ? sql`true` : sql`(hashint8(${id}) & 2147483647) % ${part.of} = ${part.index}`;
  const from = part.from === null ? sql`true` : sql`${id} >= ${part.from}`;
  return part.below === null ? from : sql`${from} and ${id} < ${part.below}`;
}

/**
 * The holders of a step paying orders, in ranges of `width` ids (the configured
 * `settlementPartHolders`) up to the highest holder with an order, the last open-ended (a holder
 * joining meanwhile falls in it): at least one part. A buy waits for the part holding its
 * earning account, so `width` bounds that wait; equal widths, since a platform's holders hold
 * their orders about evenly along the ids.
 */
export async function holderRanges(db: Db, width: number): Promise<Part[]> {
  const step = BigInt(width);
  const { rows } = await sql<{ last: bigint | null }>`select max(user_id) as last from orders`.execute(db);
  const count = Number((rows[0]?.last ?? 0n) / step) + 1;
  return Array.from({ length: count }, (_, i) => ({
    from: i === 0 ? null : BigInt(i) * step,
    below: i === count - 1 ? null : BigInt(i + 1) * step,
  }));
}
