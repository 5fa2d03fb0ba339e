import { sql } from 'kysely';
import {
  buildLevels,
  hashLeaf,
  type LeafInput,
  pathAt,
  proofFile,
  siblingsOf,
  type Step,
  toHex,
  type TreeNode,
  verifyProof,
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

/** A row of `proof_path` (pathFunction.ts): the root, a leaf of the holder's chunk, or a stored node above it. */
type PathRow = Omit<LeafRow, 'position'> & {
  part: 'root' | 'leaf' | 'node';
  day: string;
  holders: number;
  chunk_bits: number;
  mine: number;
  leaf: number;
  level: number;
  idx: number;
  /** A node's hash; a leaf's as the build stored it, null on days built before migration 0044. */
  hash: Uint8Array | null;
  sum: bigint;
};

const proofPath = gatheredCalls<PathRow>('proof_path', ['bigint', 'text', 'date']);

/**
 * A leaf of the holder's chunk as a tree node: the holder's own hashed from its balances and
 * nonce (the proof shows them), a neighbour's as the build stored it, or hashed from its row on
 * a day built before leaves kept their hash.
 */
function chunkNode(row: PathRow, own: LeafInput, mine: number): TreeNode {
  if (row.leaf === mine) return hashLeaf(own, nodeSha256);
  if (row.hash) return { hash: row.hash, sum: row.sum };
  return hashLeaf(toLeaf({ ...row, position: row.leaf }, own.asset), nodeSha256);
}

/**
 * The holder's own proof: their leaf, the siblings inside its chunk (rebuilt from the stored
 * leaves' hashes, 2^chunk_bits of them as the day was built) and the stored siblings above it,
 * read in one call of `proof_path`, gathered with the proofs asked at once. Checked against the
 * stored root before it leaves the server.
 */
export async function inclusionProof(db: Db, userId: bigint, asset: Asset, day?: string): Promise<InclusionProof> {
  const rows = await proofPath(db, userId, asset, day ?? null);
  const root = rows.find((row) => row.part === 'root');
  if (!root) throw new AppError('NOT_FOUND', 'no proof built for that day');
  const chunkRows = rows.filter((row) => row.part === 'leaf');
  const mine = chunkRows[0]?.mine;
  const ownRow = chunkRows.find((row) => row.leaf === mine);
  if (mine === undefined || !ownRow) throw new AppError('NOT_FOUND', 'nothing held in that asset that day');
  const chunk = mine >> root.chunk_bits;
  const chunkSize = 1 << root.chunk_bits;
  const own = toLeaf({ ...ownRow, position: mine }, asset);
  const levels = buildLevels(
    chunkRows.map((row) => chunkNode(row, own, mine)),
    nodeSha256,
  );
  const offset = mine - chunk * chunkSize;
  const upper = rows.filter((row) => row.part === 'node');
  const path: Step[] = [
    ...pathAt(levels, offset),
    ...siblingsOf(chunk, Math.ceil(root.holders / chunkSize)).map((s) => {
      const node = upper.find((n) => n.level === s.level && n.idx === s.index);
      if (!node) throw new Error(`proof node missing: ${root.day} ${asset} ${s.level}/${s.index}`);
      return { hash: node.hash as Uint8Array, sum: node.sum, side: s.side };
    }),
  ];
  const proof = proofFile({
    day: root.day,
    asset,
    root: { hash: root.hash as Uint8Array, sum: root.sum },
    leaf: { ...own, ...(levels[0]?.[offset] as TreeNode) },
    path,
  });
  const published = { day: root.day, asset, root: proof.root, total: proof.total };
  const check = await verifyProof(proof, published, nodeSha256);
  if (!check.ok) throw new Error(`built proof does not verify: ${check.failure}`);
  return proof;
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
