import { sql } from 'kysely';

/**
 * `bigint_sum(bigint)`: the sum of bigints as a bigint, what `sum(x)::bigint` answers, without
 * numeric: `sum` of bigints adds them up as numeric, a state allocated per group and a numeric to
 * cast back, while `int8pl` adds two bigints in place: less time and far less memory when a
 * settlement step groups every holder's lines.
 * Null over no rows, like `sum`; an overflow raises 22003 as the cast did.
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const BIGINT_SUM = sql`create or replace aggregate bigint_sum(bigint) (sfunc = int8pl, stype = bigint)`;

