import { type RawBuilder, sql } from 'kysely';

// The wire's text of values written by PostgreSQL: for notices and the pages whose JSON the
// database writes (readFunction.ts, `pageFunction`), the same text the server's own code writes.

type Expr = string | RawBuilder<unknown>;
const expr = (e: Expr) => (typeof e === 'string' ? sql.raw(e) : e);

/** An amount of 1e-8 units as decimal text, no trailing zeros (contract/money.ts, `formatUnits`). */
export const decimalText = (column: string) => sql.raw(`trim_scale(${column}::numeric / 100000000)::text`);

/** A moment's milliseconds since 1970, as a JavaScript Date holds it (truncated to the millisecond). */
export const epochMs = (column: string) => sql.raw(`floor(extract(epoch from ${column}) * 1000)::bigint`);

/** Text already safe inside JSON quotes (digits, dashes, colons) as a JSON string, or null. */
const quoted = (text: RawBuilder<unknown>) => sql`coalesce('"' || ${text} || '"', 'null')`;

/**
 * SQL expressions whose value is JSON text, never SQL's null: a value of the answer's JSON.
 * Written by concatenation, not `json_build_object`, which looks up how to write each argument's
 * type at every row and cost the order list's page several times its read.
 */
export const json = {
  /** Any text, escaped (`to_json`). */
  text: (e: Expr) => sql`coalesce(to_json(${expr(e)})::text, 'null')`,
  /** An integer or a boolean, as PostgreSQL writes it. */
  plain: (e: Expr) => sql`coalesce((${expr(e)})::text, 'null')`,
  /** An amount of 1e-8 units as its decimal string (`formatUnits`). */
  units: (e: Expr) => quoted(sql`trim_scale((${expr(e)})::numeric / 100000000)::text`),
  /** A moment as `toISOString` writes it: UTC, to the millisecond. */
  moment: (e: Expr) => quoted(sql`to_char((${expr(e)}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`),
  /** A date as YYYY-MM-DD, whatever the session's DateStyle. */
  day: (e: Expr) => quoted(sql`to_char(${expr(e)}, 'YYYY-MM-DD')`),
  /** An object of these fields, in this order (the names are the code's). */
  object: (fields: Record<string, RawBuilder<unknown>>) => {
    const parts = Object.entries(fields).map(([name, value], i) => {
      if (!/^[A-Za-z]+$/.test(name)) throw new Error(`json.object: a field name of letters, not ${name}`);
      return sql`${sql.lit(`${i === 0 ? '{' : ','}"${name}":`)} || ${value}`;
    });
    return sql`(${sql.join(parts, sql` || `)} || '}')`;
  },
  /** The object when `when` holds, else null. */
  when: (when: RawBuilder<unknown>, value: RawBuilder<unknown>) => sql`case when ${when} then ${value} else 'null' end`,
};
