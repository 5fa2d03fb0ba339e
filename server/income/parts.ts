import { sql } from 'kysely';

/**
 * A part of a step's holders: those whose id hashes to `index` modulo `of`. Parts by holder share
 * no income line, order, account, posting or lock-up, so a step's parts can be paid side by side
 * on separate connections, each exactly once; only the paying system account's balance is
 * written by every part, one after the other (the ledger's batch form takes its lock last).
 *
 * By a hash, not by the id itself or its range: the oldest holders receive the most rebates,
 * and in bench/day's tree even ids more than odd ones, so both split the work unevenly. The hash
 * is PostgreSQL's own, the same in every run of a day.
 */
export type Part = { index: number; of: number };

/** Every holder: a step paid in one piece. */
export const WHOLE: Part = { index: 0, of: 1 };

/** Whether the holder id `column` (a trusted SQL column reference) falls in `part`. */
export const inPart = (column: string, part: Part) =>
  part.of === 1
    ? sql`true`
    : sql`(hashint8(${sql.ref(column)}) & 2147483647) % ${part.of} = ${part.index}`;
