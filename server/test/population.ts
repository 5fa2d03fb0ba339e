import { sql } from 'kysely';
import { UNIT } from '../../contract/money.ts';
import type { Db } from '../db/connect.ts';
import type { AccountKind } from '../db/schema.ts';
import { postBatch } from '../ledger/batch.ts';
import { postEntry, SYSTEM } from '../ledger/ledger.ts';

export type Member = { id: bigint; inviter: bigint | null; path: bigint[]; principal: bigint };

/**
 * A team tree: a chain `chainDepth` deep from user 1, then the rest hung under earlier users
 * at deterministic pseudo-random places (a multiplicative hash), like a random recursive tree. `principalOf` gives each user's 360-day order.
 */
export function buildTree(users: number, chainDepth: number, principalOf: (id: number) => bigint): Member[] {
  const members: Member[] = [];
  for (let id = 1; id <= users; id++) {
    let inviter: number | null = null;
    if (id > 1 && id <= chainDepth + 1) inviter = id - 1;
    else if (id > chainDepth + 1) inviter = 1 + (Number((BigInt(id) * 2_654_435_761n) % 4_294_967_296n) % (id - 1));
    const parent = inviter === null ? undefined : members[inviter - 1];
    members.push({
      id: BigInt(id),
      inviter: inviter === null ? null : BigInt(inviter),
      path: parent ? [...parent.path, parent.id] : [],
      principal: principalOf(id),
    });
  }
  return members;
}

/**
 * Writes the tree with one active 360-day order per member (power 5 × principal, c = 1),
 * their earning balances through one ledger entry, and a funded pool and treasury.
 */
export async function insertTree(db: Db, members: Member[], startDay: string): Promise<void> {
  const batch = 2000;
  for (let i = 0; i < members.length; i += batch) {
    const part = members.slice(i, i + batch);
    await db
      .insertInto('users')
      .values(
        part.map((m) => ({
          id: m.id,
          subject: `tree-${m.id}`,
          name: `member ${m.id}`,
          invite_code: `T${m.id}`,
          inviter_id: m.inviter,
          path: m.path,
        })),
      )
      .execute();
    const orders = part.filter((m) => m.principal > 0n);
    if (orders.length === 0) continue;
    await db
      .insertInto('orders')
      .values(
        orders.map((m) => ({
          user_id: m.id,
          product: 'reinvest360' as const,
          principal: m.principal,
          power: 5n * m.principal,
          coefficient: '1.00000000',
          status: 'in_progress' as const,
          start_day: startDay,
          created_at: new Date(`${startDay}T00:00:00Z`),
          matures_day: '2027-12-31',
        })),
      )
      .execute();
  }
  await sql`select setval(pg_get_serial_sequence('users', 'id'), (select max(id) from users))`.execute(db);
  const funding = 100_000_000n * UNIT;
  await postBatch(db, {
    kind: 'test_tree',
    ref: 'tree',
    lines: sql`
      select user_id, 'earning' as kind, sum(principal)::bigint as amount from orders group by user_id
      union all select 0, 'exchange', -(coalesce(sum(principal), 0) + ${2n * funding}::bigint) from orders
      union all select 0, 'treasury', ${funding}::bigint
      union all select 0, 'supercomputing_pool', ${funding}::bigint`,
  });
  // Fresh bulk data has no statistics until autovacuum gets to it; plan with real ones.
  await sql`analyze`.execute(db);
}

/**
 * Funds user 0's paying accounts (the treasury, the pool) with AIC from the outside world (user
 * 0's exchange), in one entry: what settlement tests pay their steps from.
 */
export async function fundSystem(db: Db, amounts: Partial<Record<AccountKind, bigint>>): Promise<void> {
  const credits = Object.entries(amounts).flatMap(([kind, amount]) =>
    amount === undefined ? [] : [{ userId: SYSTEM, asset: 'AIC' as const, kind: kind as AccountKind, amount }],
  );
  const total = credits.reduce((sum, c) => sum + c.amount, 0n);
  await db.transaction().execute((trx) =>
    postEntry(trx, {
      kind: 'test_funding',
      postings: [{ userId: SYSTEM, asset: 'AIC', kind: 'exchange', amount: -total }, ...credits],
    }),
  );
}

/** Money arrives from the exchange into holder 1's wallet, as a recharge would move it: one entry. */
export async function moveIntoWallet(db: Db, amount: bigint): Promise<void> {
  await db.transaction().execute((trx) =>
    postEntry(trx, {
      kind: 'test_move',
      postings: [
        { userId: SYSTEM, asset: 'AIC', kind: 'exchange', amount: -amount },
        { userId: 1n, asset: 'AIC', kind: 'wallet', amount },
      ],
    }),
  );
}
