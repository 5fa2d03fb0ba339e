import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { inOneTurn } from './batch.ts';
import { perOwner } from './cache.ts';

/** PostgreSQL's largest bigint. A cursor is up to 19 digits, so a cursor past it means "from the newest". */
export const MAX_BIGINT = 9223372036854775807n;

/** An id cursor as a bigint argument: one past the largest asks from the newest, as the largest does. */
export const idCursor = (cursor: string): bigint => {
  const id = BigInt(cursor);
  return id < MAX_BIGINT ? id : MAX_BIGINT;
};

/** One argument of a call: validated before the call, since a call that fails fails its whole turn. */
export type CallArg = string | bigint | number | boolean | null;

/** An answer's row as PostgreSQL sends it, with the call it answers and its place in that answer. */
type Numbered = Record<string, unknown> & { gathered_call: number; ordinality: string | number | bigint };

/**
 * The calls of one turn: their arguments are the rows of `unnest` (one array a parameter), the
 * function runs once a row (`cross join lateral`), and each call's rows come back in the
 * function's order (`with ordinality`).
 */
async function callAll(db: Db, fn: string, types: readonly string[], calls: (readonly CallArg[])[]) {
  const names = types.map((_, i) => sql.raw(`a${i}`));
  const arrays = types.map((type, i) => sql`${calls.map((args) => args[i] ?? null)}::${sql.raw(type)}[]`);
  const { rows } = await sql<Numbered>`
    select g.gathered_call::int as gathered_call, f.*
    from unnest(${sql.join(arrays)}) with ordinality as g(${sql.join(names)}, gathered_call)
    cross join lateral ${sql.raw(fn)}(${sql.join(names.map((name) => sql`g.${name}`))}) with ordinality as f
    order by g.gathered_call, f.ordinality`.execute(db);
  const answers = calls.map(() => [] as Record<string, unknown>[]);
  for (const { gathered_call, ordinality: _, ...row } of rows) answers[gathered_call - 1]?.push(row);
  return answers;
}

/**
 * A holder's read function (a set-returning SQL function, db/readFunction.ts) called by the
 * requests of one turn of the event loop as one statement: the requests share its round trip and
 * the planning of the statement that carries them, which cost more than most holders' reads.
 * `fn` and `types` (its parameters' SQL types, in order) are the code's, never a caller's.
 * Each caller gets its own call's rows. A call that fails fails the calls of its turn, as any
 * gathered read does, so the arguments are checked before.
 */
export function gatheredCalls<R>(fn: string, types: readonly string[]): (db: Db, ...args: CallArg[]) => Promise<R[]> {
  const callsOf = perOwner((db: Db) => inOneTurn((calls: (readonly CallArg[])[]) => callAll(db, fn, types, calls)));
  return (db, ...args) => {
    // PostgreSQL takes no NUL in text: such an argument would fail every call of the turn.
    if (args.some((arg) => typeof arg === 'string' && arg.includes('\u0000'))) return Promise.reject(new Error(`${fn}: an argument holds NUL`));
    return callsOf(db)(args) as Promise<R[]>;
  };
}
