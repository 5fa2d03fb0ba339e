import { hash, randomBytes } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import {
  type BalanceKind,
  CHUNK_SIZE,
  ChunkedTreeBuilder,
  hashLeaf,
  type LeafInput,
  type SyncSha256,
} from '../../contract/merkle.ts';
import { ASSETS } from '../../contract/wallet.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/connect.ts';
import type { AccountKind, Asset, Database } from '../db/schema.ts';
import { addDays } from '../platform/clock.ts';
import { transact } from '../db/transact.ts';

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
export const LEAF_KINDS = Object.values(LEAF_ACCOUNTS);
type LeafKind = (typeof LEAF_KINDS)[number];

/** Leaves and tree levels are kept this many days (holders download recent proofs); roots stay. */
const KEEP_DAYS = 30;
/** The root of an asset nobody holds: 32 zero bytes, total 0 (no proof can lead to it). */
const EMPTY_ROOT = new Uint8Array(32);

const PAGE = 16 * CHUNK_SIZE;
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

/** Gives every holder with a balance a secret random nonce (32 bytes), once; 20,000 holders at a time. */
export async function ensureNonces(db: Db): Promise<number> {
  let created = 0;
  for (let after = -1n; ; ) {
    const { rows } = await sql<{ user_id: bigint }>`
      select distinct a.user_id from accounts a
      where a.user_id > ${after} and a.user_id <> 0 and a.balance > 0 and a.kind in (${sql.join(LEAF_KINDS)})
        and not exists (select 1 from proof_nonces n where n.user_id = a.user_id)
      order by a.user_id limit 20000`.execute(db);
    if (rows.length === 0) return created;
    const ids = rows.map((r) => r.user_id);
    const nonces = ids.map(() => randomBytes(32).toString('hex'));
    await sql`insert into proof_nonces (user_id, nonce)
      select id, decode(hex, 'hex') from unnest(${ids}::bigint[], ${nonces}::text[]) as t(id, hex)
      on conflict (user_id) do nothing`.execute(db);
    created += ids.length;
    after = ids.at(-1) as bigint;
  }
}

class NoncesMissing extends Error {}

/**
 * Writes the leaves of one asset in one statement, so every balance comes from one snapshot;
 * the same statement sums the ledger's user accounts for the cross-check. The order is a
 * shuffle keyed by the secret nonces and the day: a neighbour in the tree is nobody in particular.
 */
async function writeLeaves(trx: Trx, day: string, asset: Asset) {
  const pivot = LEAF_KINDS.map((k) => sql`coalesce(sum(a.balance) filter (where a.kind = ${k}), 0)::bigint as ${sql.ref(k)}`);
  const { rows } = await sql<{ leaves: bigint; missing: bigint; ledger_total: bigint }>`
    with bal as (
      select a.user_id, ${sql.join(pivot)}
      from accounts a
      where a.asset = ${asset} and a.user_id <> 0 and a.kind in (${sql.join(LEAF_KINDS)})
      group by a.user_id
      having sum(a.balance) > 0
    ), ins as (
      insert into proof_leaves (user_id, day, asset, position, ${sql.join(LEAF_KINDS.map((k) => sql.ref(k)))})
      select b.user_id, ${day}::date, ${asset},
        (row_number() over (order by sha256(n.nonce || convert_to(${day}::text, 'UTF8'))) - 1)::integer,
        ${sql.join(LEAF_KINDS.map((k) => sql.ref(`b.${k}`)))}
      from bal b join proof_nonces n on n.user_id = b.user_id
      returning 1
    )
    select
      (select count(*) from ins)::bigint as leaves,
      (select count(*) from bal where not exists (select 1 from proof_nonces n where n.user_id = bal.user_id))::bigint as missing,
      (select coalesce(sum(balance), 0) from accounts
        where asset = ${asset} and user_id <> 0 and kind in (${sql.join(LEAF_KINDS)}))::bigint as ledger_total`.execute(trx);
  const row = rows[0];
  if (!row) throw new Error('proof leaves: no answer');
  if (row.missing > 0n) throw new NoncesMissing();
  return { leaves: Number(row.leaves), ledgerTotal: row.ledger_total };
}

export type ProofBuild = {
  asset: Asset;
  holders: number;
  total: bigint;
  ledgerTotal: bigint;
  root: Uint8Array;
  /** Milliseconds writing the leaves (database), then building and storing the tree. */
  leavesMs: number;
  treeMs: number;
};

/** Reads the leaves back page by page, builds the tree, stores the levels above the chunks and the root. */
async function buildAsset(ctx: AppContext, trx: Trx, day: string, asset: Asset): Promise<ProofBuild> {
  const started = performance.now();
  const { leaves, ledgerTotal } = await writeLeaves(trx, day, asset);
  const written = performance.now();
  const builder = new ChunkedTreeBuilder(nodeSha256);
  // The next page is read while this one is hashed.
  let next = leaves > 0 ? readLeaves(trx, day, asset, 0, PAGE) : null;
  for (let from = 0; next; from += PAGE) {
    const rows = await next;
    next = from + PAGE < leaves ? readLeaves(trx, day, asset, from + PAGE, from + 2 * PAGE) : null;
    for (const row of rows) builder.add(hashLeaf(toLeaf(row, asset), nodeSha256));
  }
  const tree = builder.finish();
  const nodes = (tree?.upper ?? []).flatMap((level, l) =>
    level.map((node, idx) => ({ day, asset, level: l, idx, hash: node.hash, sum: node.sum })),
  );
  for (let i = 0; i < nodes.length; i += 1000) await trx.insertInto('proof_nodes').values(nodes.slice(i, i + 1000)).execute();
  const root = tree?.root ?? { hash: EMPTY_ROOT, sum: 0n };
  await trx
    .insertInto('proof_roots')
    .values({ day, asset, root: root.hash, total: root.sum, holders: leaves, ledger_total: ledgerTotal, built_at: ctx.clock.now() })
    .execute();
  const treeMs = Math.round(performance.now() - written);
  return { asset, holders: leaves, total: root.sum, ledgerTotal, root: root.hash, leavesMs: Math.round(written - started), treeMs };
}

/**
 * Builds the day's trees, one per asset, from the balances right after the day's settlement.
 * Idempotent: a day already built is left as it is (null), and a per-day lock lets one process
 * build it. Leaves and levels older than KEEP_DAYS go in the same transaction.
 */
export async function buildProofs(ctx: AppContext, day: string): Promise<ProofBuild[] | null> {
  for (let attempt = 0; ; attempt++) {
    await ensureNonces(ctx.db);
    try {
      return await transact(ctx.db, async (trx) => {
        await sql`select pg_advisory_xact_lock(7201009, ${dayNumber(day)})`.execute(trx);
        const built = await trx.selectFrom('proof_roots').select('asset').where('day', '=', day).executeTakeFirst();
        if (built) return null;
        await sql`set local work_mem = '256MB'`.execute(trx);
        await sql`set local jit = off`.execute(trx);
        const results: ProofBuild[] = [];
        for (const asset of ASSETS) results.push(await buildAsset(ctx, trx, day, asset));
        const expired = addDays(day, -KEEP_DAYS);
        await trx.deleteFrom('proof_leaves').where('day', '<', expired).execute();
        await trx.deleteFrom('proof_nodes').where('day', '<', expired).execute();
        return results;
      });
    } catch (error) {
      // A holder's first balance arrived between the nonces and the snapshot: give it one, again.
      if (!(error instanceof NoncesMissing) || attempt >= 3) throw error;
    }
  }
}
