import fc from 'fast-check';
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BALANCE_KINDS, type Balances, CHUNK_SIZE, ChunkedTreeBuilder, hashLeaf, toHex } from '../../contract/merkle.ts';
import type { Asset } from '../db/schema.ts';
import { addDays } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import * as m0009 from '../db/migrations/0009_proofs.ts';
import * as m0016 from '../db/migrations/0016_proof_leaves_by_day.ts';
import * as m0029 from '../db/migrations/0029_proof_leaves_in_parts.ts';
import { buildProofs, LEAF_KINDS, leavesPartition, nodeSha256, readLeaves, toLeaf } from './build.ts';

/** None at all, around the edges of a chunk, and a tree of many stored levels above its chunks. */
const EDGES = [0, 1, 2, CHUNK_SIZE - 1, CHUNK_SIZE, CHUNK_SIZE + 1, 2 * CHUNK_SIZE + 1, 1025];
/** Five-byte user ids, so the big-endian encoding of the id is exercised past its low bytes. */
const FIRST_USER = 2n ** 40n;

/** Amounts below 2^48: six of them for 2,100 holders still sum below 2^63. */
const amount = fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 2n ** 48n }));
/** A holder's six balances, at least one of them positive (a holder with nothing has no leaf). */
const holder = fc.tuple(amount, amount, amount, amount, amount, amount).map((values) => {
  const balances = Object.fromEntries(BALANCE_KINDS.map((kind, i) => [kind, values[i]])) as Balances;
  if (values.every((v) => v === 0n)) balances.withdrawalsPending = 1n;
  return balances;
});
const holders = (count: number) => fc.array(holder, { minLength: count, maxLength: count });
/** The AIC holders, a few USDT holders (a 4-byte asset name), and some accounts holding nothing. */
const books = (aic: fc.Arbitrary<Balances[]>) =>
  fc.record({ AIC: aic, USDT: fc.nat({ max: 40 }).chain(holders), empty: fc.nat({ max: 3 }) });
type Books = { AIC: Balances[]; USDT: Balances[]; empty: number };

/**
 * The tree the server builds in SQL against the JS builder of contract/merkle.ts (which the
 * browser and the command-line verifier use) over the same stored leaves: root, total and every
 * stored level above the chunks.
 */
describe.each(DATABASES)('the SQL-built tree on %s', (kind) => {
  let t: TestApp;
  let days = 0;

  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false });
  });
  afterAll(async () => {
    await t.close();
  });

  /** Replaces the test holders' accounts: user FIRST_USER + i holds holders[i], then the empty ones. */
  async function fund(books: Books) {
    const ids: bigint[] = [];
    const assets: Asset[] = [];
    const kinds: string[] = [];
    const balances: bigint[] = [];
    for (const asset of ['AIC', 'USDT'] as const) {
      const owners = [...books[asset], ...Array.from({ length: books.empty }, () => ({}) as Partial<Balances>)];
      for (const [i, held] of owners.entries()) {
        for (const [k, balanceKind] of BALANCE_KINDS.entries()) {
          ids.push(FIRST_USER + BigInt(i));
          assets.push(asset);
          kinds.push(LEAF_KINDS[k] as string);
          balances.push(held[balanceKind] ?? 0n);
        }
      }
    }
    await sql`delete from accounts where user_id >= ${FIRST_USER}`.execute(t.ctx.db);
    await sql`insert into accounts (user_id, asset, kind, balance)
      select * from unnest(${ids}::bigint[], ${assets}::text[], ${kinds}::text[], ${balances}::bigint[])`.execute(t.ctx.db);
  }

  async function expectSameTree(day: string, asset: Asset, held: Balances[]) {
    const stored = await t.ctx.db.selectFrom('proof_roots').selectAll().where('day', '=', day).where('asset', '=', asset).executeTakeFirstOrThrow();
    expect(stored.holders).toBe(held.length);
    const rows = await readLeaves(t.ctx.db, day, asset, 0, held.length);
    expect(rows.map((r) => r.position)).toEqual(held.map((_, i) => i));
    const leaves = rows.map((row) => toLeaf(row, asset));
    for (const leaf of leaves) expect(leaf.balances).toEqual(held[Number(leaf.userId - FIRST_USER)]);

    const builder = new ChunkedTreeBuilder(nodeSha256);
    for (const leaf of leaves) builder.add(hashLeaf(leaf, nodeSha256));
    const tree = builder.finish();
    const nodes = await t.ctx.db
      .selectFrom('proof_nodes')
      .select(['level', 'idx', 'hash', 'sum'])
      .where('day', '=', day)
      .where('asset', '=', asset)
      .orderBy('level')
      .orderBy('idx')
      .execute();
    const hex = (node: { hash: Uint8Array; sum: bigint }) => ({ hash: toHex(node.hash), sum: node.sum });
    expect(nodes.map((n) => ({ level: n.level, idx: n.idx, ...hex(n) }))).toEqual(
      (tree?.upper ?? []).flatMap((level, l) => level.map((node, idx) => ({ level: l, idx, ...hex(node) }))),
    );
    expect(hex({ hash: stored.root, sum: stored.total })).toEqual(hex(tree?.root ?? { hash: new Uint8Array(32), sum: 0n }));
    expect(stored.ledger_total).toBe(stored.total);
  }

  const sameAsJs = async (books: Books) => {
    await fund(books);
    const day = addDays('2027-01-01', days++);
    expect(await buildProofs(t.ctx, day)).toHaveLength(2);
    await expectSameTree(day, 'AIC', books.AIC);
    await expectSameTree(day, 'USDT', books.USDT);
  };

  it.each(EDGES)('equals the JS builder’s for %i holders with random balances', async (count) => {
    await fc.assert(fc.asyncProperty(books(holders(count)), sameAsJs), { numRuns: 1 });
  });

  it('equals the JS builder’s for random holder counts and balances', async () => {
    await fc.assert(fc.asyncProperty(books(fc.nat({ max: 2100 }).chain(holders)), sameAsJs), { numRuns: 6 });
  });

  /**
   * The fewest holders (FIRST_USER + 0, 1, …) from `from` on whose first part (income/parts.ts:
   * two on PostgreSQL, the holders by a hash of their id) holds `first(count)` of them.
   */
  async function holdersWithFirstPart(from: number, first: (count: number) => number): Promise<number> {
    const { rows } = await sql<{ part: number }>`
      select ((hashint8(id) & 2147483647) % 2)::int as part
      from generate_series(${FIRST_USER}::bigint, ${FIRST_USER}::bigint + 4095) as id order by id`.execute(t.ctx.db);
    let inFirst = 0;
    for (const [i, { part }] of rows.entries()) {
      if (part === 0) inFirst++;
      if (i + 1 >= from && inFirst === first(i + 1)) return i + 1;
    }
    throw new Error('no such holder count below 4,096');
  }

  /**
   * The parts' chunks: a first part of exactly one chunk (each part builds its own), one ending
   * mid-chunk (the chunk it shares with the second is built from both parts' leaves), and a tree of
   * one chunk that both parts share.
   */
  const SPLITS: [string, () => Promise<number>][] = [
    ['a first part of one whole chunk', () => holdersWithFirstPart(1, () => CHUNK_SIZE)],
    ['a chunk shared mid-tree', () => holdersWithFirstPart(3000, (count) => (count % 2 === 0 ? -1 : Math.floor(count / 2)))],
    ['one chunk shared', () => holdersWithFirstPart(40, (count) => Math.floor(count / 2))],
  ];

  it.each(SPLITS)('writes the leaves and chunks in parts, %s, as the JS builder', async (_, count) => {
    const holdersCount = await count();
    // No shrinking: a build of thousands of holders per try would outlast the test.
    await fc.assert(fc.asyncProperty(books(holders(holdersCount)), sameAsJs), { numRuns: 1, endOnFailure: true });
    const day = addDays('2027-01-01', days - 1);
    const parts = await sql<{ name: string }>`
      select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = ${leavesPartition(day)}::regclass order by 1`.execute(t.ctx.db);
    expect(parts.rows.filter((r) => r.name.includes('_aic_'))).toHaveLength(kind === 'postgres' ? 2 : 1);
    // This app's schema only: other test files build proofs in schemas of their own meanwhile.
    const left = await sql`select relname from pg_class
      where relnamespace = current_schema()::regnamespace and (relname like 'proof_stage_%' or relname like 'proof_chunks_%')`.execute(t.ctx.db);
    expect(left.rows).toEqual([]);
  });

  it('refuses a negative balance rather than encode it as a huge one', async () => {
    await fund({ AIC: [], USDT: [], empty: 0 });
    await sql`insert into accounts (user_id, asset, kind, balance, allow_negative)
      values (${FIRST_USER}, 'AIC', 'wallet', 5, false), (${FIRST_USER}, 'AIC', 'rewards', -1, true)`.execute(t.ctx.db);
    const day = addDays('2027-01-01', days++);
    await expect(buildProofs(t.ctx, day)).rejects.toThrow(/negative AIC balance/);
    expect(await t.ctx.db.selectFrom('proof_roots').select('asset').where('day', '=', day).execute()).toEqual([]);
  });

  it('draws the nonce of a holder whose first balance came after the nonces, and builds with them', async () => {
    const held = (wallet: bigint): Balances => ({ wallet, earning: 0n, rewards: 0n, lockedRewards: 0n, networkRewards: 0n, withdrawalsPending: 0n });
    await fund({ AIC: [held(5n)], USDT: [], empty: 0 });
    await buildProofs(t.ctx, addDays('2027-01-01', days++));
    // The second holder’s first balance: no nonce yet, and no pass over the accounts before the build.
    await fund({ AIC: [held(5n), held(7n)], USDT: [], empty: 0 });
    const day = addDays('2027-01-01', days++);
    expect(await buildProofs(t.ctx, day)).toHaveLength(2);
    await expectSameTree(day, 'AIC', [held(5n), held(7n)]);
  });

  /** The day partitions of proof_leaves, oldest first. */
  const partitions = async () =>
    (
      await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'proof_leaves'::regclass order by c.relname`.execute(t.ctx.db)
    ).rows.map((r) => r.name);

  it('keeps each day’s leaves in a partition of its own and drops it whole after 30 days', async () => {
    await fund({ AIC: [{ wallet: 5n, earning: 0n, rewards: 0n, lockedRewards: 0n, networkRewards: 0n, withdrawalsPending: 0n }], USDT: [], empty: 0 });
    const first = addDays('2027-06-01', 0);
    await buildProofs(t.ctx, first);
    expect(await partitions()).toContain(leavesPartition(first));
    const kept = addDays(first, 30);
    await buildProofs(t.ctx, kept);
    expect(await partitions()).toContain(leavesPartition(first));
    const next = addDays(first, 31);
    await buildProofs(t.ctx, next);
    const after = await partitions();
    expect(after).not.toContain(leavesPartition(first));
    expect(after).toEqual(expect.arrayContaining([leavesPartition(kept), leavesPartition(next)]));
    expect(await t.ctx.db.selectFrom('proof_leaves').select('day').where('day', '=', first).execute()).toEqual([]);
    expect(await t.ctx.db.selectFrom('proof_nodes').select('day').where('day', '=', first).execute()).toEqual([]);
    // The roots stay; the latest day's leaf reads back from its partition.
    expect(await t.ctx.db.selectFrom('proof_roots').select('asset').where('day', '=', first).execute()).toHaveLength(2);
    expect(await readLeaves(t.ctx.db, next, 'AIC', 0, 1)).toHaveLength(1);
  });

  it('migration 0029 down makes each day built in parts one plain partition again, row for row, and up undoes it', async () => {
    await fund({ AIC: [{ wallet: 5n, earning: 1n, rewards: 0n, lockedRewards: 0n, networkRewards: 0n, withdrawalsPending: 0n }], USDT: [], empty: 0 });
    const day = addDays('2027-09-01', days++);
    await buildProofs(t.ctx, day);
    const leaves = () => sql`select user_id, to_char(day, 'YYYY-MM-DD') as day, asset, position, wallet from proof_leaves order by day, asset, position`;
    const before = (await leaves().execute(t.ctx.db)).rows;
    const inParts: Migration = m0029;
    const rolledBack = new Error('rolled back');
    const run = t.ctx.db.transaction().execute(async (trx) => {
      await inParts.down?.(trx);
      const kinds = await sql<{ relkind: string }>`select c.relkind from pg_class c where c.relname = ${leavesPartition(day)}`.execute(trx);
      expect(kinds.rows).toEqual([{ relkind: 'r' }]);
      const key = await sql`select conname from pg_constraint where conrelid = 'proof_leaves'::regclass and contype = 'p'`.execute(trx);
      expect(key.rows).toHaveLength(1);
      expect((await leaves().execute(trx)).rows).toEqual(before);
      await inParts.up(trx);
      expect((await leaves().execute(trx)).rows).toEqual(before);
      throw rolledBack;
    });
    await expect(run).rejects.toBe(rolledBack);
  });

  it('migration 0016 moves each day already built into a partition of its own, row for row', async () => {
    const [before, partitioning]: Migration[] = [m0009, m0016];
    const rolledBack = new Error('rolled back');
    const run = t.ctx.db.transaction().execute(async (trx) => {
      await sql`create schema m0016_check`.execute(trx);
      await sql`set local search_path = m0016_check`.execute(trx);
      await before?.up(trx);
      const row = (day: string, userId: number, position: number) => sql`(${userId}, ${day}::date, 'AIC', ${position}, ${userId * 10}, 1, 2, 3, 4, 5)`;
      await sql`insert into proof_leaves values ${sql.join([row('2026-11-01', 7, 0), row('2026-11-01', 8, 1), row('2026-11-02', 7, 0)])}`.execute(trx);
      await partitioning?.up(trx);
      const parts = await sql<{ name: string; n: number }>`
        select c.relname as name, (select count(*) from proof_leaves l where l.tableoid = c.oid)::int as n
        from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'proof_leaves'::regclass order by 1`.execute(trx);
      expect(parts.rows).toEqual([
        { name: 'proof_leaves_20261101', n: 2 },
        { name: 'proof_leaves_20261102', n: 1 },
      ]);
      const moved = await sql`select user_id, to_char(day, 'YYYY-MM-DD') as day, position, wallet, withdrawals_pending
        from proof_leaves order by day, position`.execute(trx);
      expect(moved.rows).toEqual([
        { user_id: 7n, day: '2026-11-01', position: 0, wallet: 70n, withdrawals_pending: 5n },
        { user_id: 8n, day: '2026-11-01', position: 1, wallet: 80n, withdrawals_pending: 5n },
        { user_id: 7n, day: '2026-11-02', position: 0, wallet: 70n, withdrawals_pending: 5n },
      ]);
      throw rolledBack;
    });
    await expect(run).rejects.toBe(rolledBack);
  });
});
