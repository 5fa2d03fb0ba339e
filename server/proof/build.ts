import { hash, randomBytes } from 'node:crypto';
import { type RawBuilder, sql, type Transaction } from 'kysely';
import {
  assetField,
  buildLevels,
  CHUNK_BITS,
  CHUNK_SIZE,
  LEAF,
  type LeafInput,
  NODE,
  type SyncSha256,
  type TreeNode,
} from '../../contract/merkle.ts';
import { OWNED_KINDS, type OwnedAccount } from '../../contract/owned.ts';
import { ASSETS } from '../../contract/wallet.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/connect.ts';
import type { AccountKind, Asset, Database } from '../db/schema.ts';
import { addDays, dayNumber } from '../platform/clock.ts';
import { transact } from '../db/transact.ts';
import { type HashPart, inPart, WHOLE } from '../income/parts.ts';
import { LOCKS } from '../db/locks.ts';

type Trx = Transaction<Database>;

/** One-shot SHA-256 (a third faster than createHash for these short inputs). */
export const nodeSha256: SyncSha256 = (data) => hash('sha256', data, 'buffer');

/**
 * What a leaf counts: every ledger account a holder owns on the platform. Besides the wallet,
 * earning (principal and income in orders), rewards and locked rewards, the claimable network
 * income (network_rewards) is the holder's, and so are withdrawals under review
 * (withdrawals_pending): the platform owes them until approved. Approved ones on their way to the
 * exchange wait in user 0's exchange_clearing, not in a leaf (docs/proof-of-liabilities.md).
 */
/** The leaf's ledger accounts (and proof_leaves columns) in the order a leaf encodes them: what a holder owns (contract/owned.ts). */
export const LEAF_KINDS: readonly (OwnedAccount & AccountKind)[] = OWNED_KINDS;
type LeafKind = (typeof LEAF_KINDS)[number];

/** Leaves and tree levels are kept this many days (holders download recent proofs); roots stay. */
const KEEP_DAYS = 30;
/** The root of an asset nobody holds: 32 zero bytes, total 0 (no proof can lead to it). */
const EMPTY_ROOT = new Uint8Array(32);

/** A holder's leaf from a proof_leaves row joined with the holder's nonce. */
export type LeafRow = {
  position: number;
  user_id: bigint;
  nonce: Uint8Array;
} & Record<LeafKind, bigint>;

export const toLeaf = (row: LeafRow, asset: string): LeafInput => ({
  nonce: row.nonce,
  userId: row.user_id,
  asset,
  balances: {
    wallet: row.wallet,
    earning: row.earning,
    rewards: row.rewards,
    lockedRewards: row.locked_rewards,
    networkRewards: row.network_rewards,
    withdrawalsPending: row.withdrawals_pending,
  },
});

/**
 * Leaves at positions [from, to) of a day's tree, in tree order, with their holders' nonces: the
 * leaves by their position index, then the nonces by user id (two index lookups, whatever the
 * planner's statistics say; a join was planned as a scan of every nonce per page).
 */
export async function readLeaves(db: Db | Trx, day: string, asset: Asset, from: number, to: number): Promise<LeafRow[]> {
  const leaves = await db
    .selectFrom('proof_leaves')
    .select(['position', 'user_id', 'wallet', 'earning', 'rewards', 'locked_rewards', 'network_rewards', 'withdrawals_pending'])
    .where('day', '=', day)
    .where('asset', '=', asset)
    .where('position', '>=', from)
    .where('position', '<', to)
    .orderBy('position')
    .execute();
  if (leaves.length === 0) return [];
  const nonces = await db
    .selectFrom('proof_nonces')
    .select(['user_id', 'nonce'])
    .where(sql<boolean>`user_id = any(${leaves.map((l) => l.user_id)}::bigint[])`)
    .execute();
  const byUser = new Map(nonces.map((n) => [n.user_id, n.nonce]));
  return leaves.map((leaf) => {
    const nonce = byUser.get(leaf.user_id);
    if (!nonce) throw new Error(`no nonce for holder ${leaf.user_id}`);
    return { ...leaf, nonce };
  });
}

const NONCE_BATCH = 50_000;

/**
 * Gives every holder with a balance a secret random nonce (32 bytes, node:crypto), once;
 * 50,000 holders at a time, their nonces sent as one byte string the statement cuts up.
 */
export async function ensureNonces(db: Db): Promise<number> {
  let created = 0;
  for (let after = -1n; ; ) {
    const { rows } = await sql<{ user_id: bigint }>`
      select distinct a.user_id from accounts a
      where a.user_id > ${after} and a.user_id <> 0 and a.balance > 0 and a.kind in (${sql.join(LEAF_KINDS)})
        and not exists (select 1 from proof_nonces n where n.user_id = a.user_id)
      order by a.user_id limit ${NONCE_BATCH}`.execute(db);
    if (rows.length === 0) return created;
    const ids = rows.map((r) => r.user_id);
    await drawNonces(db, ids);
    created += ids.length;
    after = ids.at(-1) as bigint;
  }
}

/** Draws the nonces of `ids` (holders without one), sent as one byte string the statement cuts up. */
async function drawNonces(db: Db | Trx, ids: bigint[]): Promise<void> {
  await sql`insert into proof_nonces (user_id, nonce)
    select id, substring(${randomBytes(32 * ids.length)}::bytea from (32 * (n - 1) + 1)::integer for 32)
    from unnest(${ids}::bigint[]) with ordinality as t(id, n)
    on conflict (user_id) do nothing`.execute(db);
}

class NoncesMissing extends Error {}

/**
 * The tree is built in the database, a level per statement. Each part of the holders builds the
 * chunks (CHUNK_SIZE leaves) that lie wholly in it, up to their roots, beside the others: the
 * level above the leaves (height 1) written with them, the levels above it in a temporary table
 * per height, dropped as soon as the next height is built (the next asset reuses the names) or at
 * commit. A chunk with leaves of two parts (one at most per boundary) is built in Node from those
 * leaves' hashes, fewer than 2 × CHUNK_SIZE.
 * From the chunk roots (height CHUNK_BITS, level 0) up, the levels are stored in proof_nodes.
 */
const scratch = (height: number) => sql.table(`proof_scratch_${height}`);
const bytea = (bytes: Uint8Array) => sql`${Buffer.from(bytes)}::bytea`;

/** Row `p`'s leaf hash: the encoding of contract/merkle.ts; int8send is 8 bytes big-endian. */
const leafHash = (asset: Asset, nonce = sql`p.nonce`) => {
  const balances = LEAF_KINDS.map((kind) => sql`int8send(${sql.ref(`p.${kind}`)})`);
  return sql`sha256(${bytea(Uint8Array.of(LEAF))} || ${nonce} || int8send(p.user_id) || ${bytea(assetField(asset))}
    || ${sql.join(balances, sql` || `)})`;
};
/** The shuffle key of a leaf with nonce `nonce` on `day`. */
const shuffleKey = (day: string, nonce = sql`p.nonce`) => sql`sha256(${nonce} || convert_to(${day}::text, 'UTF8'))`;

/** How many parts the leaves are staged and written in, side by side: PGlite has one connection. */
const STAGE_PARTS = { postgres: 2, pglite: 1 } as const;

type StageCounts = { holders: bigint; missing: bigint; negative: bigint; ledger_total: bigint };

/** A build's tables of part `index` of an asset's holders, named by the day and asset. */
const partTable = (prefix: string, day: string, asset: Asset, index: number) =>
  sql.table(`${prefix}_${day.replaceAll('-', '')}_${asset.toLowerCase()}_${index}`);
/** Its staged leaves: unlogged when staged on a connection of its own, else temporary. */
const stageTable = (day: string, asset: Asset, index: number) => partTable('proof_stage', day, asset, index);
/** Its leaves as stored: a partition of the day's leaves once the build attaches it. */
const leavesPart = (day: string, asset: Asset, index: number) => partTable('proof_leaves', day, asset, index);
/** The roots of the chunks wholly in it, staged like its leaves. */
const chunksTable = (day: string, asset: Asset, index: number) => partTable('proof_chunks', day, asset, index);

/**
 * Stages a part of the holders' leaves (`part`, by a hash of the holder: income/parts.ts): each
 * holder's balances pivoted from the ledger's accounts, and for a holder with more than nothing
 * (a leaf) the shuffle key (the secret nonce and the day) and the leaf's hash; and the part's
 * counts, from the staged rows: its leaves, and for the checks the leaves without a nonce, those
 * with a negative balance, and the ledger's user accounts summed for the cross-check (every
 * holder's, a leaf or not: one pass over the accounts).
 */
async function stagePart(db: Trx, day: string, asset: Asset, part: HashPart, kind: 'temp' | 'unlogged'): Promise<StageCounts> {
  const stage = stageTable(day, asset, part.index);
  const pivot = LEAF_KINDS.map((k) => sql`coalesce(bigint_sum(a.balance) filter (where a.kind = ${k}), 0) as ${sql.ref(k)}`);
  const columns = sql.join(LEAF_KINDS.map((k) => sql.ref(k)));
  const mine = sql`a.asset = ${asset} and a.user_id <> 0 and a.kind in (${sql.join(LEAF_KINDS)}) and ${inPart('a.user_id', part)}`;
  await sql`drop table if exists ${stage}`.execute(db);
  // A leaf without a nonce gets a null key and hash, and is counted as missing.
  await sql`
    create ${sql.raw(kind)} table ${stage} ${sql.raw(kind === 'temp' ? 'on commit drop' : '')} as
    select p.user_id, ${sql.join(LEAF_KINDS.map((k) => sql.ref(`p.${k}`)))},
      case when p.sum > 0 then ${shuffleKey(day)} end as key,
      case when p.sum > 0 then ${leafHash(asset)} end as hash, p.sum
    from (
      select b.*, n.nonce
      from (select a.user_id, ${sql.join(pivot)}, bigint_sum(a.balance) as sum from accounts a where ${mine} group by a.user_id) b
      left join proof_nonces n on n.user_id = b.user_id
    ) p`.execute(db);
  await drawMissing(db, stage, day, asset);
  const { rows } = await sql<StageCounts>`
    select count(*) filter (where sum > 0)::bigint as holders,
      count(*) filter (where sum > 0 and key is null)::bigint as missing,
      count(*) filter (where sum > 0 and least(${columns}) < 0)::bigint as negative,
      coalesce(sum(sum), 0)::bigint as ledger_total
    from ${stage}`.execute(db);
  if (!rows[0]) throw new Error('proof leaves: no counts');
  return rows[0];
}

/**
 * The staged leaves of holders on their first day (no nonce yet: a few a day) get one here, and
 * their key and hash, where a pass over every account before the proof looked for them, every
 * day, to find a few. One drawn meanwhile by another build is left to the counts (missing):
 * the build draws again and retries.
 */
async function drawMissing(db: Trx, stage: RawBuilder<unknown>, day: string, asset: Asset): Promise<void> {
  const { rows } = await sql<{ user_id: bigint }>`select user_id from ${stage} where sum > 0 and key is null`.execute(db);
  if (rows.length === 0) return;
  await drawNonces(db, rows.map((r) => r.user_id));
  await sql`update ${stage} p set key = ${shuffleKey(day, sql`n.nonce`)}, hash = ${leafHash(asset, sql`n.nonce`)}
    from proof_nonces n where n.user_id = p.user_id and p.sum > 0 and p.key is null`.execute(db);
}

/** A leaf of a chunk that two parts share: its position, hash and sum. */
type Edge = { position: number; hash: Buffer; sum: bigint };
/** What a part wrote: its counts, whether it has chunks of its own, the leaves of shared chunks. */
type Written = { counts: StageCounts; chunks: boolean; edges: Edge[] };

/**
 * Writes part `index`'s staged leaves (`all`: every part's counts, in order) at the positions
 * after the parts before it, shuffled by the key, into a table of its own (checked to hold only
 * its day, asset and positions, indexed as proof_leaves is, so that attaching it scans and
 * builds nothing); in the same statement the level above the leaves of the chunks wholly in the
 * part (the last chunk of all is the last part's, however short), then the levels above them to
 * the chunks' roots. Answers the leaves of the chunks it shares with a neighbour.
 * A build whose checks failed writes nothing.
 */
async function writePart(db: Trx, day: string, asset: Asset, index: number, all: StageCounts[], kind: 'temp' | 'unlogged'): Promise<Written> {
  const counts = all[index] as StageCounts;
  const holders = Number(counts.holders);
  if (holders === 0 || all.some((c) => BigInt(c.missing) > 0n || BigInt(c.negative) > 0n)) return { counts, chunks: false, edges: [] };
  const offset = all.slice(0, index).reduce((n, c) => n + Number(c.holders), 0);
  const total = all.reduce((n, c) => n + Number(c.holders), 0);
  const end = offset + holders;
  // The positions of the part's own chunks: from its first chunk boundary to its last one.
  const ownStart = Math.min(Math.ceil(offset / CHUNK_SIZE) * CHUNK_SIZE, end);
  const ownEnd = Math.max(ownStart, end === total ? end : Math.floor(end / CHUNK_SIZE) * CHUNK_SIZE);
  const leaves = leavesPart(day, asset, index);
  await sql`drop table if exists ${leaves}`.execute(db);
  await sql`create table ${leaves} (like proof_leaves including defaults,
    check (day = ${sql.lit(day)}::date and asset = ${sql.lit(asset)} and position >= ${sql.lit(offset)} and position < ${sql.lit(end)}))`.execute(db);
  await sql`create temp table ${scratch(1)} (idx integer, hash bytea, sum bigint) on commit drop`.execute(db);
  const columns = sql.join(LEAF_KINDS.map((k) => sql.ref(k)));
  const { rows } = await sql<Edge>`
    with placed as (
      select s.*, (${offset} + row_number() over w - 1)::integer as position, lead(s.hash) over w as right_hash,
        lead(s.sum) over w as right_sum
      from ${stageTable(day, asset, index)} s where s.sum > 0 window w as (order by s.key)
    ), ins as (
      insert into ${leaves} (user_id, day, asset, position, ${columns}, hash)
      select p.user_id, ${day}::date, ${asset}, p.position, ${sql.join(LEAF_KINDS.map((k) => sql.ref(`p.${k}`)))}, p.hash
      from placed p
    ), paired as (
      insert into ${scratch(1)} (idx, hash, sum)
      select p.position / 2, ${node('p.', 'p.right_')} from placed p
      where p.position >= ${ownStart} and p.position < ${ownEnd} and p.position % 2 = 0
    )
    select p.position, p.hash, p.sum from placed p where p.position < ${ownStart} or p.position >= ${ownEnd}`.execute(db);
  await sql`create index on ${leaves} (user_id, day, asset)`.execute(db);
  await sql`create unique index on ${leaves} (day, asset, position)`.execute(db);
  const chunks = ownEnd > ownStart;
  if (chunks) await buildChunks(db, chunksTable(day, asset, index), kind);
  else await sql`drop table ${scratch(1)}`.execute(db);
  return { counts, chunks, edges: rows };
}

/**
 * From the level above a part's own leaves (scratch height 1), the levels up to its chunks' roots
 * (height CHUNK_BITS), which go into `roots`: the part's chunks start on a chunk boundary, so
 * every node pairs with its sibling in the part, or is the last of all and carried up.
 */
async function buildChunks(db: Trx, roots: RawBuilder<unknown>, kind: 'temp' | 'unlogged'): Promise<void> {
  for (let height = 2; height <= CHUNK_BITS; height++) {
    const rows = parents(sql`select idx, hash, sum from ${scratch(height - 1)}`);
    const into = height === CHUNK_BITS ? roots : scratch(height);
    if (height === CHUNK_BITS) await sql`drop table if exists ${roots}`.execute(db);
    await sql`create ${sql.raw(height === CHUNK_BITS ? kind : 'temp')} table ${into}
      ${sql.raw(height === CHUNK_BITS && kind === 'unlogged' ? '' : 'on commit drop')} as ${rows}`.execute(db);
    await sql`drop table ${scratch(height - 1)}`.execute(db);
  }
}

/**
 * The roots of the chunks that two parts share, from their leaves (`edges`, every part's), as
 * contract/merkle.ts builds a chunk: each must be whole, up to the last leaf of all.
 */
function sharedChunkRoots(edges: Edge[], total: number): { idx: number; node: TreeNode }[] {
  const byChunk = new Map<number, Edge[]>();
  for (const edge of edges) {
    const idx = Math.floor(edge.position / CHUNK_SIZE);
    const chunk = byChunk.get(idx);
    if (chunk) chunk.push(edge);
    else byChunk.set(idx, [edge]);
  }
  return [...byChunk.entries()].map(([idx, leaves]) => {
    leaves.sort((a, b) => a.position - b.position);
    const first = idx * CHUNK_SIZE;
    if (leaves.length !== Math.min(CHUNK_SIZE, total - first) || leaves.some((leaf, i) => leaf.position !== first + i)) {
      throw new Error(`proof leaves: chunk ${idx} is not whole across its parts`);
    }
    return { idx, node: buildLevels(leaves, nodeSha256).at(-1)?.[0] as TreeNode };
  });
}

/** Settles on no value: a promise and what settles it. */
function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (reason: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Awaited by the other parts only once they have staged: a failure meanwhile is theirs to see.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/**
 * Stages and writes the leaves of one asset from one snapshot of the balances: on PostgreSQL in
 * parts side by side, each on a connection of its own that imports this transaction's snapshot
 * (the pivot, the nonces' join, the hashing, the shuffle and the writes are most of a build, and
 * the day's last step otherwise left a core idle); a part writes once every part has counted its
 * holders, after those before it. On PGlite in one part, in this transaction.
 */
async function stageAndWrite(ctx: AppContext, trx: Trx, day: string, asset: Asset): Promise<Written[]> {
  const parts = STAGE_PARTS[ctx.dbKind];
  if (parts === 1) return [await writePart(trx, day, asset, 0, [await stagePart(trx, day, asset, WHOLE, 'temp')], 'temp')];
  const { rows } = await sql<{ snapshot: string }>`select pg_export_snapshot() as snapshot`.execute(trx);
  const snapshot = rows[0]?.snapshot ?? '';
  const staged = Array.from({ length: parts }, () => deferred<StageCounts>());
  return Promise.all(
    staged.map((mine, index) =>
      ctx.db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (helper) => {
          await sql`set transaction snapshot ${sql.lit(snapshot)}`.execute(helper);
          await sql`set local work_mem = '256MB'`.execute(helper);
          await sql`set local jit = off`.execute(helper);
          // The parts are the build's parallelism, one core each: workers of their own would
          // only take turns with them.
          await sql`set local max_parallel_workers_per_gather = 0`.execute(helper);
          // The holders' nonces joined by hashing the part's pivoted balances, not by an index
          // probe per holder, which the planner picks from its low estimate of the pivot's rows and
          // which is slower for a part's every holder.
          await sql`set local enable_nestloop = off`.execute(helper);
          try {
            mine.resolve(await stagePart(helper, day, asset, { index, of: parts }, 'unlogged'));
          } catch (error) {
            mine.reject(error);
            throw error;
          }
          return writePart(helper, day, asset, index, await Promise.all(staged.map((s) => s.promise)), 'unlogged');
        }),
    ),
  );
}

/**
 * The leaves of one asset, all of one snapshot of the balances, in the day's partition: each
 * part's table attached at its positions; and the chunks' roots (stored level 0): each part's
 * own, and those of the chunks two parts share. The order is a shuffle keyed by the secret nonces
 * and the day within each part (by a hash of the holder): a neighbour in the tree is nobody in
 * particular.
 */
async function writeLeaves(ctx: AppContext, trx: Trx, day: string, asset: Asset) {
  const written = await stageAndWrite(ctx, trx, day, asset);
  const total = (key: keyof StageCounts) => written.reduce((sum, part) => sum + BigInt(part.counts[key]), 0n);
  if (total('missing') > 0n) throw new NoncesMissing();
  // int8send would encode a negative amount as a huge one; the tree refuses it (contract/merkle.ts).
  if (total('negative') > 0n) throw new RangeError(`proof leaves: ${total('negative')} holders with a negative ${asset} balance`);
  let offset = 0;
  for (const [index, { counts }] of written.entries()) {
    const holders = Number(counts.holders);
    if (holders === 0) continue;
    await sql`alter table ${sql.table(leavesPartition(day))} attach partition ${leavesPart(day, asset, index)}
      for values from (${sql.lit(asset)}, ${sql.lit(offset)}) to (${sql.lit(asset)}, ${sql.lit(offset + holders)})`.execute(trx);
    offset += holders;
  }
  const roots = sharedChunkRoots(
    written.flatMap((part) => part.edges),
    offset,
  ).map(({ idx, node }) => sql`select ${idx}::integer as idx, ${Buffer.from(node.hash)}::bytea as hash, ${node.sum}::bigint as sum`);
  const owned = [...written.entries()].filter(([, part]) => part.chunks).map(([index]) => sql`select idx, hash, sum from ${chunksTable(day, asset, index)}`);
  if (offset > 0) {
    await sql`insert into proof_nodes (day, asset, level, idx, hash, sum)
      select ${day}::date, ${asset}, 0, idx, hash, sum from (${sql.join([...owned, ...roots], sql` union all `)}) c
      order by idx`.execute(trx);
  }
  return { leaves: offset, ledgerTotal: total('ledger_total') };
}

/**
 * A node from its children's hashes and sums, as SQL columns `hash` and `sum`: an odd last node
 * (no right sibling) is carried up unchanged.
 */
const node = (left: string, right: string) => {
  const [hash, sum, rightHash, rightSum] = [`${left}hash`, `${left}sum`, `${right}hash`, `${right}sum`].map((c) => sql.ref(c));
  return sql`case when ${rightHash} is null then ${hash}
      else sha256(${bytea(Uint8Array.of(NODE))} || ${hash} || int8send(${sum}) || ${rightHash} || int8send(${rightSum})) end as hash,
    ${sum} + coalesce(${rightSum}, 0) as sum`;
};

/**
 * The level above `below` (rows idx 0..n-1, hash, sum): nodes 2i and 2i+1 hashed together
 * (lead() finds each its right sibling). Ordered by idx, so on proof_nodes it reads the primary
 * key in order; a scratch table is sorted, in memory.
 */
const parents = (below: RawBuilder<unknown>) => sql`
  select idx / 2 as idx, ${node('', 'right_')}
  from (select idx, hash, sum, lead(hash) over w as right_hash, lead(sum) over w as right_sum
    from (${below}) below window w as (order by idx)) pairs
  where idx % 2 = 0`;

/** The stored level at `height` (height CHUNK_BITS, the chunks' roots, is level 0). */
const storedAt = (day: string, asset: Asset, height: number) => sql`
  select idx, hash, sum from proof_nodes where day = ${day}::date and asset = ${asset} and level = ${height - CHUNK_BITS}`;

/**
 * Builds the stored levels above the chunks' roots (written with the leaves), height by height up
 * to the root.
 */
async function buildTree(trx: Trx, day: string, asset: Asset, leaves: number): Promise<TreeNode> {
  if (leaves === 0) return { hash: EMPTY_ROOT, sum: 0n };
  let height = CHUNK_BITS + 1;
  for (; Math.ceil(leaves / 2 ** (height - 1)) > 1; height++) {
    await sql`insert into proof_nodes (day, asset, level, idx, hash, sum)
      select ${day}::date, ${asset}, ${height - CHUNK_BITS}, idx, hash, sum from (${parents(storedAt(day, asset, height - 1))}) up`.execute(trx);
  }
  return trx
    .selectFrom('proof_nodes')
    .select(['hash', 'sum'])
    .where('day', '=', day)
    .where('asset', '=', asset)
    .where('level', '=', height - 1 - CHUNK_BITS)
    .executeTakeFirstOrThrow();
}

export type ProofBuild = {
  asset: Asset;
  holders: number;
  total: bigint;
  ledgerTotal: bigint;
  root: Uint8Array;
  /** Milliseconds staging and writing the leaves and the chunks above them, then the stored levels. */
  leavesMs: number;
  treeMs: number;
};

/** Writes and hashes the leaves, builds the levels above them, stores the root. */
async function buildAsset(ctx: AppContext, trx: Trx, day: string, asset: Asset): Promise<ProofBuild> {
  const started = performance.now();
  const { leaves, ledgerTotal } = await writeLeaves(ctx, trx, day, asset);
  const written = performance.now();
  const root = await buildTree(trx, day, asset, leaves);
  await trx
    .insertInto('proof_roots')
    .values({ day, asset, root: root.hash, total: root.sum, holders: leaves, ledger_total: ledgerTotal, chunk_bits: CHUNK_BITS, built_at: ctx.clock.now() })
    .execute();
  const treeMs = Math.round(performance.now() - written);
  return { asset, holders: leaves, total: root.sum, ledgerTotal, root: root.hash, leavesMs: Math.round(written - started), treeMs };
}

/**
 * The day's leaves: a partition of proof_leaves, itself partitioned by asset and position into the
 * parts written side by side (migration 0029), attached once written. Named by the day, which is
 * how dropExpired finds the old ones.
 */
export const leavesPartition = (day: string) => `proof_leaves_${day.replaceAll('-', '')}`;
const PARTITION_DAY = /^proof_leaves_(\d{4})(\d{2})(\d{2})$/;

/** Leaves (a partition per day, dropped whole) and levels older than `expired`. */
async function dropExpired(trx: Trx, expired: string): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'proof_leaves'::regclass`.execute(trx);
  for (const { name } of rows) {
    const [, y, m, d] = PARTITION_DAY.exec(name) ?? [];
    if (y && `${y}-${m}-${d}` < expired) await sql`drop table ${sql.table(name)}`.execute(trx);
  }
  await trx.deleteFrom('proof_nodes').where('day', '<', expired).execute();
}

/**
 * The day's build, in its transaction: null when another build has made it already. `building`
 * records that this one holds the day's lock and stages its leaves (only it may drop the stages).
 */
async function buildDay(ctx: AppContext, trx: Trx, day: string, building: { staged: boolean }): Promise<ProofBuild[] | null> {
  await sql`select pg_advisory_xact_lock(${LOCKS.proofBuild}, ${dayNumber(day)})`.execute(trx);
  const built = await trx.selectFrom('proof_roots').select('asset').where('day', '=', day).executeTakeFirst();
  if (built) return null;
  building.staged = true;
  await sql`set local work_mem = '256MB'`.execute(trx);
  await sql`set local jit = off`.execute(trx);
  const leaves = sql.table(leavesPartition(day));
  await sql`create table ${leaves} (like proof_leaves including defaults) partition by range (asset, position)`.execute(trx);
  const results: ProofBuild[] = [];
  for (const asset of ASSETS) results.push(await buildAsset(ctx, trx, day, asset));
  // The parts carry the indexes and the checks: attaching scans and builds nothing.
  await sql`alter table proof_leaves attach partition ${leaves} for values in (${sql.lit(day)})`.execute(trx);
  await dropExpired(trx, addDays(day, -KEEP_DAYS));
  return results;
}

/**
 * The tables of parts written on connections of their own: they outlive the build's
 * transaction, whatever its end. The stages and chunks' roots are dropped by the build that wrote them,
 * after its transaction (another process's build of the day waits for its lock meanwhile), and
 * the leaves' parts too when it failed (else they are the day's partitions); one that died first
 * leaves them to the next build of the day, which writes over them.
 */
async function dropStages(ctx: AppContext, day: string, built: boolean): Promise<void> {
  if (STAGE_PARTS[ctx.dbKind] === 1) return;
  const tables = [stageTable, chunksTable, ...(built ? [] : [leavesPart])];
  for (const asset of ASSETS) {
    for (let index = 0; index < STAGE_PARTS[ctx.dbKind]; index++) {
      for (const table of tables) await sql`drop table if exists ${table(day, asset, index)}`.execute(ctx.db);
    }
  }
}

/**
 * Builds the day's trees, one per asset, from the balances right after the day's settlement.
 * Idempotent: a day already built is left as it is (null), and a per-day lock lets one process
 * build it. Leaves and levels older than KEEP_DAYS go in the same transaction. The build draws
 * the nonces its leaves' holders lack (their first day), so no pass over every account comes
 * first; a holder whose nonce another build drew meanwhile fails the attempt, which draws every
 * missing one (ensureNonces) and retries.
 */
export async function buildProofs(ctx: AppContext, day: string): Promise<ProofBuild[] | null> {
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0) await ensureNonces(ctx.db);
    const building = { staged: false };
    let built = false;
    try {
      const results = await transact(ctx.db, (trx) => buildDay(ctx, trx, day, building));
      built = true;
      return results;
    } catch (error) {
      // A holder's first balance arrived between the nonces and the snapshot: give it one, again.
      if (!(error instanceof NoncesMissing) || attempt >= 3) throw error;
    } finally {
      if (building.staged) await dropStages(ctx, day, built);
    }
  }
}
