import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { rebateHolder } from '../income/inputs.ts';
import { LOCKS } from '../db/locks.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Every change to the tree (a bind, an operator's unbind, a repair) holds this one
 * transaction-level lock, so each sees the tree as the previous one committed it. Binds are
 * rare; serialising them costs nothing a holder notices, and a transaction lock is released at
 * commit, which a transaction-pooling PgBouncer allows.
 */
export const lockTree = (trx: Transaction<Database>) => sql`select pg_advisory_xact_lock(${LOCKS.tree})`.execute(trx);

export type Ancestry = {
  /** The inviters above the user, nearest first, as far as the walk went. */
  ids: bigint[];
  /** The walk came back to a holder it had passed: the chain above the user holds a cycle. */
  cycle: boolean;
  /** The walk came back to the user itself: the user is on that cycle. */
  onCycle: boolean;
};

/**
 * Walks `inviter_id` upward from a user: the committed truth, whatever the stored paths say.
 * Stops at a root or at the first holder seen twice.
 */
export async function ancestry(db: Executor, userId: bigint): Promise<Ancestry> {
  const { rows } = await sql<{ id: bigint; repeat: boolean }>`
    with recursive up(id, depth, seen) as (
      select inviter_id, 1, array[id] from users where id = ${userId} and inviter_id is not null
      union all
      select u.inviter_id, up.depth + 1, up.seen || up.id
      from up join users u on u.id = up.id
      where u.inviter_id is not null and not (up.id = any(up.seen))
    )
    select id, id = any(seen) as repeat from up order by depth`.execute(db);
  const repeat = rows.find((r) => r.repeat);
  return {
    ids: rows.filter((r) => !r.repeat).map((r) => r.id),
    cycle: repeat !== undefined,
    onCycle: repeat?.id === userId,
  };
}

/**
 * Writes the stored path of a user (given) and of everyone below them (their inviter's path
 * plus the inviter, level by level), walking `inviter_id` down. Only rows that change are
 * written. Returns how many changed.
 */
export async function rewritePaths(trx: Transaction<Database>, userId: bigint, path: bigint[]): Promise<number> {
  const { rows } = await sql<{ n: bigint }>`
    with recursive down(id, path) as (
      select id, ${toArray(path)}::bigint[] from users where id = ${userId}
      union all
      select u.id, d.path || d.id from users u join down d on u.inviter_id = d.id
      where not (u.id = any(d.path))
    ),
    changed as (
      update users set path = down.path from down
      where users.id = down.id and users.path is distinct from down.path
      returning 1
    )
    select count(*) as n from changed`.execute(trx);
  return Number(rows[0]?.n ?? 0n);
}

const toArray = (ids: bigint[]) => `{${ids.join(',')}}`;

/** What is wrong with the stored tree; `ok` when nothing is. */
export type TreeCheck = {
  ok: boolean;
  /** Holders whose path is not their inviter's path plus the inviter (a root's is empty). */
  stalePaths: number;
  /** The first of them, for the operator. */
  staleSample: string[];
  /** Each cycle of `inviter_id`, its members from the smallest id on. */
  cycles: string[][];
  /** Rebate lines that pay a holder on their own static earnings. */
  selfRebateLines: number;
};

const SAMPLE = 20;
/** Walks from at most this many stale holders to find cycles (a cycle makes its members stale). */
const WALK_LIMIT = 10_000;

/**
 * The tree's own check, beside the ledger's: every stored path equals the inviter's path plus
 * the inviter (which also rules out a cycle: a path is one longer than its inviter's, so no
 * chain can come back to where it started), and no rebate line pays its own earner.
 */
export async function checkTree(db: Executor): Promise<TreeCheck> {
  const stale = await sql<{ id: bigint }>`
    select u.id from users u left join users i on i.id = u.inviter_id
    where u.path is distinct from
      (case when u.inviter_id is null then '{}'::bigint[] else i.path || i.id end)
    order by u.id`.execute(db);
  const staleIds = stale.rows.map((r) => r.id);
  const cycles = staleIds.length ? await cyclesAbove(db, staleIds.slice(0, WALK_LIMIT)) : [];
  const selfRebates = await sql<{ n: bigint }>`
    select count(*) as n from income
    where kind = 'rebate' and ${rebateHolder('income', 'earner')} = user_id`.execute(db);
  const selfRebateLines = Number(selfRebates.rows[0]?.n ?? 0n);
  return {
    ok: staleIds.length === 0 && selfRebateLines === 0,
    stalePaths: staleIds.length,
    staleSample: staleIds.slice(0, SAMPLE).map(String),
    cycles,
    selfRebateLines,
  };
}

/** The cycles met walking `inviter_id` up from these holders, each once. */
async function cyclesAbove(db: Executor, starts: bigint[]): Promise<string[][]> {
  const { rows } = await sql<{ id: bigint; seen: bigint[] }>`
    with recursive up(start, id, seen) as (
      select u.id, u.inviter_id, array[u.id] from users u
      where u.id = any(${toArray(starts)}::bigint[]) and u.inviter_id is not null
      union all
      select up.start, u.inviter_id, up.seen || up.id
      from up join users u on u.id = up.id
      where u.inviter_id is not null and not (up.id = any(up.seen))
    )
    select id, seen from up where id = any(seen)`.execute(db);
  const found = new Map<string, string[]>();
  for (const row of rows) {
    const seen = row.seen.map(String);
    const loop = seen.slice(seen.indexOf(String(row.id)));
    const smallest = loop.reduce((a, b) => (BigInt(b) < BigInt(a) ? b : a));
    const from = loop.indexOf(smallest);
    const members = [...loop.slice(from), ...loop.slice(0, from)];
    found.set(members.join(','), members);
  }
  return [...found.values()];
}
