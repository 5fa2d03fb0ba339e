import { sql } from 'kysely';
import {
  buildLevels,
  hashLeaf,
  pathAt,
  pathRoot,
  proofFile,
  siblingsOf,
  type Step,
  toHex,
  type TreeNode,
} from '../../contract/merkle.ts';
import { formatUnits } from '../../contract/money.ts';
import type { InclusionProof, ProofLedgerCheck, ProofRootData } from '../../contract/proof.ts';
import type { Db } from '../db/connect.ts';
import type { Asset } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { gatheredCalls } from '../platform/readCalls.ts';
import { LEAF_KINDS, type LeafRow, nodeSha256, toLeaf } from './build.ts';

/** The roots published for a day, or for the latest day built. */
export async function publishedRoots(db: Db, day?: string): Promise<ProofRootData> {
  const latest = day ?? (await db.selectFrom('proof_roots').select(sql<string>`max(day)::text`.as('day')).executeTakeFirst())?.day;
  if (!latest) return { day: null, builtAt: null, roots: [] };
  const rows = await db.selectFrom('proof_roots').selectAll().where('day', '=', latest).orderBy('asset').execute();
  return {
    day: rows.length ? latest : null,
    builtAt: rows[0]?.built_at.toISOString() ?? null,
    roots: rows.map((r) => ({ asset: r.asset, root: toHex(r.root), total: formatUnits(r.total), holders: r.holders })),
  };
}

/** The row of `holder_proof` (pathFunction.ts): the day's root, the holder's leaf, the chunk's and the nodes' bytes. */
type ProofRow = Omit<LeafRow, 'position' | 'nonce'> & {
  day: string;
  holders: number;
  chunk_bits: number;
  root: Uint8Array;
  total: bigint;
  /** The holder's position; null when they have no leaf that day (and so are the rest). */
  mine: number | null;
  nonce: Uint8Array;
  chunk: Uint8Array;
  nodes: Uint8Array | null;
};

/** Bytes as a Buffer without a copy (PGlite answers bytea as a Uint8Array, pg as a Buffer). */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

const holderProof = gatheredCalls<ProofRow>('holder_proof', ['bigint', 'text', 'date']);

/** The chunk's leaves as tree nodes: per leaf its hash (32 bytes) and sum (8, big-endian). */
function chunkNodes(chunk: Uint8Array): TreeNode[] {
  const bytes = asBuffer(chunk);
  const nodes: TreeNode[] = [];
  for (let at = 0; at < bytes.length; at += 40) nodes.push({ hash: bytes.subarray(at, at + 32), sum: bytes.readBigInt64BE(at + 32) });
  return nodes;
}

/** The stored nodes above the chunk by level: per node its level (4 bytes), hash (32) and sum (8). */
function upperNodes(stored: Uint8Array | null): Map<number, TreeNode> {
  const bytes = stored && asBuffer(stored);
  const nodes = new Map<number, TreeNode>();
  for (let at = 0; bytes && at < bytes.length; at += 44) {
    nodes.set(bytes.readInt32BE(at), { hash: bytes.subarray(at + 4, at + 36), sum: bytes.readBigInt64BE(at + 36) });
  }
  return nodes;
}

/**
 * The holder's own proof: their leaf (hashed here from their balances and nonce, which the proof
 * shows), the siblings inside its chunk (rebuilt from the stored leaves' hashes, 2^chunk_bits of
 * them as the day was built) and the stored siblings above it, read in one call of
 * `holder_proof`, gathered with the proofs asked at once. Its path is checked to lead from the
 * holder's leaf to the stored root before it leaves the server (tests verify the file itself, as
 * a holder's browser does).
 */
export async function inclusionProof(db: Db, userId: bigint, asset: Asset, day?: string): Promise<InclusionProof> {
  const [row] = await holderProof(db, userId, asset, day ?? null);
  if (!row) throw new AppError('NOT_FOUND', 'no proof built for that day');
  const mine = row.mine;
  if (mine === null) throw new AppError('NOT_FOUND', 'nothing held in that asset that day');
  const chunk = mine >> row.chunk_bits;
  const chunkSize = 1 << row.chunk_bits;
  const offset = mine - chunk * chunkSize;
  const own = toLeaf({ ...row, position: mine }, asset);
  const leaf = hashLeaf(own, nodeSha256);
  const leaves = chunkNodes(row.chunk);
  leaves[offset] = leaf;
  const levels = buildLevels(leaves, nodeSha256);
  const upper = upperNodes(row.nodes);
  const path: Step[] = [
    ...pathAt(levels, offset),
    ...siblingsOf(chunk, Math.ceil(row.holders / chunkSize)).map((s) => {
      const node = upper.get(s.level);
      if (!node) throw new Error(`proof node missing: ${row.day} ${asset} ${s.level}/${s.index}`);
      return { ...node, side: s.side };
    }),
  ];
  const published = { hash: row.root, sum: row.total };
  // Checked on the tree's own bytes before the proof is written out: the leaf was hashed from the
  // holder's balances above, so the path must lead from it to the published root and total.
  const reached = await pathRoot(leaf, path, nodeSha256);
  if (!reached || reached.sum !== published.sum || Buffer.compare(reached.hash, published.hash) !== 0) {
    throw new Error(`built proof does not verify: ${row.day} ${asset} holder ${userId}`);
  }
  return proofFile({ day: row.day, asset, root: published, leaf: { ...own, ...leaf }, path });
}

/** The latest tree per asset against the ledger: at build (same snapshot) and now. */
export async function proofLedgerChecks(db: Db): Promise<ProofLedgerCheck[]> {
  const { rows } = await sql<{ asset: Asset; day: string; holders: number; total: bigint; ledger_total: bigint; ledger_now: bigint }>`
    select r.asset, r.day::text as day, r.holders, r.total, r.ledger_total,
      (select coalesce(sum(balance), 0) from accounts a
        where a.asset = r.asset and a.user_id <> 0 and a.kind in (${sql.join(LEAF_KINDS)}))::bigint as ledger_now
    from proof_roots r
    where r.day = (select max(day) from proof_roots)
    order by r.asset`.execute(db);
  return rows.map((r) => ({
    asset: r.asset,
    day: r.day,
    holders: r.holders,
    total: formatUnits(r.total),
    ledgerTotal: formatUnits(r.ledger_total),
    ledgerNow: formatUnits(r.ledger_now),
    matches: r.total === r.ledger_total,
  }));
}
