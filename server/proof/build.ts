import { hash, randomBytes } from 'node:crypto';
import { type RawBuilder, sql, type Transaction } from 'kysely';
import {
  assetField,
  BALANCE_KINDS,
  type BalanceKind,
  CHUNK_BITS,
  LEAF,
  type LeafInput,
  NODE,
  type SyncSha256,
  type TreeNode,
} from '../../contract/merkle.ts';
import { ASSETS } from '../../contract/wallet.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/connect.ts';
import type { AccountKind, Asset, Database } from '../db/schema.ts';
import { addDays } from '../platform/clock.ts';
import { transact } from '../db/transact.ts';
import { inPart, type Part } from '../income/parts.ts';

type Trx = Transaction<Database>;

/** One-shot SHA-256 (a third faster than createHash for these short inputs). */
export const nodeSha256: SyncSha256 = (data) => hash('sha256', data, 'buffer');

/**
 * What a leaf counts: every ledger account a holder owns on the platform. Besides the wallet,
 * earning (principal and income in orders), rewards and locked rewards, the claimable network
 * income (network_rewards) is the holder's, and so are withdrawals under review
 * (withdrawals_pending): the platform owes them until approved. The exchange_wallet account is
 * the holder's balance at the exchange, not a liability of the platform.
 */
const LEAF_ACCOUNTS = {
  wallet: 'wallet',
  earning: 'earning',
  rewards: 'rewards',
  lockedRewards: 'locked_rewards',
  networkRewards: 'network_rewards',
  withdrawalsPending: 'withdrawals_pending',
} as const satisfies Record<BalanceKind, AccountKind>;
/** The leaf's ledger accounts (and proof_leaves columns) in the order a leaf encodes them. */
export const LEAF_KINDS = BALANCE_KINDS.map((kind) => LEAF_ACCOUNTS[kind]);
type LeafKind = (typeof LEAF_ACCOUNTS)[BalanceKind];

/** Leaves and tree levels are kept this many days (holders download recent proofs); roots stay. */
const KEEP_DAYS = 30;
/** The root of an asset nobody holds: 32 zero bytes, total 0 (no proof can lead to it). */
const EMPTY_ROOT = new Uint8Array(32);

const dayNumber = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / 86_400_000);

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
    await sql`insert into proof_nonces (user_id, nonce)
      select id, substring(${randomBytes(32 * ids.length)}::bytea from (32 * (n - 1) + 1)::integer for 32)
      from unnest(${ids}::bigint[]) with ordinality as t(id, n)
      on conflict (user_id) do nothing`.execute(db);
    created += ids.length;
    after = ids.at(-1) as bigint;
  }
}

class NoncesMissing extends Error {}

/**
 * The tree is built in the database, a level per statement, so no leaf crosses into Node. The
 * levels below the chunk roots are scratch: a temporary table per height (1 = the pairs of leaves,
 * written with them; the leaves' hashes are staged), dropped as soon as the next height is built
 * (the next asset reuses the names) or at commit.
 * From the chunk roots (height CHUNK_BITS, level 0) up, the levels are stored in proof_nodes.
 */
const scratch = (height: number) => sql.table(`proof_scratch_${height}`);
const bytea = (bytes: Uint8Array) => sql`${Buffer.from(bytes)}::bytea`;

/** Row `p`'s leaf hash: the encoding of contract/merkle.ts; int8send is 8 bytes big-endian. */
const leafHash = (asset: Asset) => {
  const balances = LEAF_KINDS.map((kind) => sql`int8send(${sql.ref(`p.${kind}`)})`);
  return sql`sha256(${bytea(Uint8Array.of(LEAF))} || p.nonce || int8send(p.user_id) || ${bytea(assetField(asset))}
    || ${sql.join(balances, sql` || `)})`;
};
const leafSum = sql.join(
  LEAF_KINDS.map((kind) => sql.ref(`p.${kind}`)),
  sql` + `,
);

/** How many parts the leaves are staged in, side by side: PGlite has one connection. */
const STAGE_PARTS = { postgres: 2, pglite: 1 } as const;

type StageCounts = { missing: bigint; negative: bigint; ledger_total: bigint };

/** Part `index` of a build's staged leaves: unlogged when staged on a connection of its own. */
const stageTable = (day: string, asset: Asset, index: number) =>
  sql.table(`proof_stage_${day.replaceAll('-', '')}_${asset.toLowerCase()}_${index}`);

/**
 * Stages a part of the holders' leaves (`part`, by a hash of the holder: income/parts.ts): each
 * holder's balances pivoted from the ledger's accounts, the shuffle key (the secret nonce and the
 * day), the leaf's hash and sum; and the part's counts for the checks: holders without a nonce,
 * holders with a negative balance, and the ledger's user accounts summed for the cross-check.
 */
async function stagePart(db: Trx, day: string, asset: Asset, part: Part, kind: 'temp' | 'unlogged'): Promise<StageCounts> {
  const stage = stageTable(day, asset, part.index);
  const pivot = LEAF_KINDS.map((k) => sql`coalesce(sum(a.balance) filter (where a.kind = ${k}), 0)::bigint as ${sql.ref(k)}`);
  const columns = sql.join(LEAF_KINDS.map((k) => sql.ref(k)));
  const mine = sql`a.asset = ${asset} and a.user_id <> 0 and a.kind in (${sql.join(LEAF_KINDS)}) and ${inPart('a.user_id', part)}`;
  await sql`drop table if exists ${stage}`.execute(db);
  // A holder without a nonce gets a null key and hash, and is counted as missing.
  await sql`
    create ${sql.raw(kind)} table ${stage} ${sql.raw(kind === 'temp' ? 'on commit drop' : '')} as
    select p.user_id, ${sql.join(LEAF_KINDS.map((k) => sql.ref(`p.${k}`)))},
      sha256(p.nonce || convert_to(${day}::text, 'UTF8')) as key, ${leafHash(asset)} as hash, ${leafSum} as sum
    from (
      select b.*, n.nonce
      from (select a.user_id, ${sql.join(pivot)} from accounts a where ${mine} group by a.user_id having sum(a.balance) > 0) b
      left join proof_nonces n on n.user_id = b.user_id
    ) p`.execute(db);
  const { rows } = await sql<StageCounts>`
    select
      (select count(*) from ${stage} where key is null)::bigint as missing,
      (select count(*) from ${stage} where least(${columns}) < 0)::bigint as negative,
      (select coalesce(sum(a.balance), 0) from accounts a where ${mine})::bigint as ledger_total`.execute(db);
  if (!rows[0]) throw new Error('proof leaves: no counts');
  return rows[0];
}

/**
 * Stages the leaves of one asset from one snapshot of the balances: on PostgreSQL in parts side
 * by side, each on a connection of its own that imports this transaction's snapshot (the pivot,
 * the nonces' join and the hashing are most of a build, and the day's last step otherwise left a
 * core idle); on PGlite in one part, in this transaction.
 */
async function stageLeaves(ctx: AppContext, trx: Trx, day: string, asset: Asset): Promise<StageCounts[]> {
  const parts = STAGE_PARTS[ctx.dbKind];
  if (parts === 1) return [await stagePart(trx, day, asset, { index: 0, of: 1 }, 'temp')];
  const { rows } = await sql<{ snapshot: string }>`select pg_export_snapshot() as snapshot`.execute(trx);
  const snapshot = rows[0]?.snapshot ?? '';
  return Promise.all(
    Array.from({ length: parts }, (_, index) =>
      ctx.db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (helper) => {
          await sql`set transaction snapshot ${sql.lit(snapshot)}`.execute(helper);
          await sql`set local work_mem = '256MB'`.execute(helper);
          await sql`set local jit = off`.execute(helper);
          // The holders' nonces joined by hashing the part's pivoted balances, not by an index
          // probe per holder, which the planner picks from its estimate of the pivot (measured on
          // a part of 500,564 holders: 2.53 and 2.56 s against 3.02 and 3.21 s).
          await sql`set local enable_nestloop = off`.execute(helper);
          return stagePart(helper, day, asset, { index, of: parts }, 'unlogged');
        }),
    ),
  );
}

/**
 * Writes the leaves of one asset from the staged parts, all of one snapshot of the balances, and
 * the level above them (height 1, a scratch table) in the same statement: the leaves' hashes were
 * staged (reading the leaves back would join a million of them with their nonces again), and the
 * order that numbers the leaves pairs them too (a statement of its own sorted a million leaf
 * hashes again). The order is a shuffle keyed by the secret nonces and the day: a neighbour in
 * the tree is nobody in particular.
 */
async function writeLeaves(ctx: AppContext, trx: Trx, day: string, asset: Asset) {
  const counts = await stageLeaves(ctx, trx, day, asset);
  const total = (key: keyof StageCounts) => counts.reduce((sum, part) => sum + BigInt(part[key]), 0n);
  const stages = counts.map((_, index) => stageTable(day, asset, index));
  if (total('missing') > 0n) throw new NoncesMissing();
  // int8send would encode a negative amount as a huge one; the tree refuses it (contract/merkle.ts).
  if (total('negative') > 0n) throw new RangeError(`proof leaves: ${total('negative')} holders with a negative ${asset} balance`);
  const leaves = sql.table(leavesPartition(day));
  const columns = sql.join(LEAF_KINDS.map((k) => sql.ref(k)));
  await sql`create temp table ${scratch(1)} (idx integer, hash bytea, sum bigint) on commit drop`.execute(trx);
  const staged = sql.join(
    stages.map((stage) => sql`select * from ${stage}`),
    sql` union all `,
  );
  const { rows } = await sql<{ leaves: bigint }>`
    with placed as (
      select s.*, (row_number() over w - 1)::integer as position, lead(s.hash) over w as right_hash,
        lead(s.sum) over w as right_sum
      from (${staged}) s window w as (order by s.key)
    ), ins as (
      insert into ${leaves} (user_id, day, asset, position, ${columns})
      select p.user_id, ${day}::date, ${asset}, p.position, ${sql.join(LEAF_KINDS.map((k) => sql.ref(`p.${k}`)))}
      from placed p
      returning 1
    ), paired as (
      insert into ${scratch(1)} (idx, hash, sum)
      select p.position / 2, ${node('p.', 'p.right_')} from placed p where p.position % 2 = 0
    )
    select count(*)::bigint as leaves from ins`.execute(trx);
  return { leaves: Number(rows[0]?.leaves ?? 0n), ledgerTotal: total('ledger_total') };
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

/** The nodes at a height above the leaves, from the scratch table or the stored levels. */
const nodesAt = (day: string, asset: Asset, height: number) =>
  height < CHUNK_BITS
    ? sql`select idx, hash, sum from ${scratch(height)}`
    : sql`select idx, hash, sum from proof_nodes
        where day = ${day}::date and asset = ${asset} and level = ${height - CHUNK_BITS}`;

/** Builds height `height` from the one below; a scratch level is dropped once used. */
async function buildHeight(trx: Trx, day: string, asset: Asset, height: number): Promise<void> {
  const rows = parents(nodesAt(day, asset, height - 1));
  if (height < CHUNK_BITS) {
    await sql`create temp table ${scratch(height)} on commit drop as ${rows}`.execute(trx);
  } else {
    await sql`insert into proof_nodes (day, asset, level, idx, hash, sum)
      select ${day}::date, ${asset}, ${height - CHUNK_BITS}, idx, hash, sum from (${rows}) up`.execute(trx);
  }
  if (height - 1 < CHUNK_BITS) await sql`drop table ${scratch(height - 1)}`.execute(trx);
}

/**
 * Builds the tree over the leaves' level above (height 1, written with the leaves), height by
 * height up to the chunk roots (even when one node is left: it is carried up), then the stored
 * levels up to the root.
 */
async function buildTree(trx: Trx, day: string, asset: Asset, leaves: number): Promise<TreeNode> {
  if (leaves === 0) {
    await sql`drop table ${scratch(1)}`.execute(trx);
    return { hash: EMPTY_ROOT, sum: 0n };
  }
  let height = 2;
  for (; height <= CHUNK_BITS || Math.ceil(leaves / 2 ** (height - 1)) > 1; height++) {
    await buildHeight(trx, day, asset, height);
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
  /** Milliseconds writing and hashing the leaves (one statement), then building the levels above. */
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
    .values({ day, asset, root: root.hash, total: root.sum, holders: leaves, ledger_total: ledgerTotal, built_at: ctx.clock.now() })
    .execute();
  const treeMs = Math.round(performance.now() - written);
  return { asset, holders: leaves, total: root.sum, ledgerTotal, root: root.hash, leavesMs: Math.round(written - started), treeMs };
}

/**
 * The day's leaves: a partition of proof_leaves written without indexes, then attached (see
 * migration 0016). Named by the day, which is how dropExpired finds the old ones.
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
  await sql`select pg_advisory_xact_lock(7201009, ${dayNumber(day)})`.execute(trx);
  const built = await trx.selectFrom('proof_roots').select('asset').where('day', '=', day).executeTakeFirst();
  if (built) return null;
  building.staged = true;
  await sql`set local work_mem = '256MB'`.execute(trx);
  await sql`set local jit = off`.execute(trx);
  const leaves = sql.table(leavesPartition(day));
  await sql`create table ${leaves} (like proof_leaves including defaults, check (day = ${sql.lit(day)}::date))`.execute(trx);
  const results: ProofBuild[] = [];
  for (const asset of ASSETS) results.push(await buildAsset(ctx, trx, day, asset));
  // Builds the partition's indexes by sorting once; the check spares a scan of its rows.
  await sql`alter table proof_leaves attach partition ${leaves} for values in (${sql.lit(day)})`.execute(trx);
  await dropExpired(trx, addDays(day, -KEEP_DAYS));
  return results;
}

/**
 * The parts staged on connections of their own: they outlive the build's transaction, whatever
 * its end. Dropped by the build that staged them, after its transaction (another process's
 * build of the day waits for its lock meanwhile); one that died first leaves them to the next
 * build of the day, which stages over them.
 */
async function dropStages(ctx: AppContext, day: string): Promise<void> {
  if (STAGE_PARTS[ctx.dbKind] === 1) return;
  for (const asset of ASSETS) {
    for (let index = 0; index < STAGE_PARTS[ctx.dbKind]; index++) {
      await sql`drop table if exists ${stageTable(day, asset, index)}`.execute(ctx.db);
    }
  }
}

/**
 * Builds the day's trees, one per asset, from the balances right after the day's settlement.
 * Idempotent: a day already built is left as it is (null), and a per-day lock lets one process
 * build it. Leaves and levels older than KEEP_DAYS go in the same transaction. `noncesDrawn`: the
 * caller has just drawn the nonces (ensureNonces), so the first attempt skips that pass over
 * every account (2 s at a million holders); a holder it missed fails the attempt, which draws them.
 */
export async function buildProofs(ctx: AppContext, day: string, options: { noncesDrawn?: boolean } = {}): Promise<ProofBuild[] | null> {
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0 || !options.noncesDrawn) await ensureNonces(ctx.db);
    const building = { staged: false };
    try {
      return await transact(ctx.db, (trx) => buildDay(ctx, trx, day, building));
    } catch (error) {
      // A holder's first balance arrived between the nonces and the snapshot: give it one, again.
      if (!(error instanceof NoncesMissing) || attempt >= 3) throw error;
    } finally {
      if (building.staged) await dropStages(ctx, day);
    }
  }
}
