import { formatUnits } from './money.ts';
import type { InclusionProof } from './proof.ts';

/**
 * The Merkle sum tree of proof of liabilities: ONE implementation for the server (which rebuilds
 * a holder's chunk for their proof), the web app and `npm run verify-proof` (which check a
 * holder's proof). SHA-256 is injected: node:crypto on the server and in the command,
 * crypto.subtle in the browser. The server builds the whole tree in SQL
 * (server/proof/build.ts), byte for byte this encoding; a property test holds it to this code.
 *
 * Byte encoding, version 1 (every integer unsigned big-endian; amounts in units of 1e-8):
 *
 *   leaf  = SHA-256( 0x00
 *                  || nonce                 32 bytes, the holder's secret random nonce
 *                  || userId                 8 bytes
 *                  || len(asset)             1 byte
 *                  || asset                  ASCII, "AIC" or "USDT"
 *                  || wallet || earning || rewards || lockedRewards
 *                     || networkRewards || withdrawalsPending     6 × 8 bytes )
 *   sum(leaf) = the six balances added
 *
 *   node  = SHA-256( 0x01 || leftHash (32) || leftSum (8) || rightHash (32) || rightSum (8) )
 *   sum(node) = leftSum + rightSum
 *
 * The prefixes 0x00 and 0x01 keep a leaf from passing for a node. Each node commits to both
 * children's sums, not only their total, so no level can shift value between its sides. Leaves
 * pair left to right, level by level; the last node of a level with an odd count is carried up
 * unchanged (never duplicated: a duplicate would count its sum twice). Every amount and sum is
 * non-negative and below 2^64: a sum tree with negatives would let a negative leaf hide a debt.
 */

/** SHA-256 of some bytes, synchronous (node:crypto) or not (crypto.subtle). */
export type Sha256 = (data: Uint8Array<ArrayBuffer>) => Uint8Array | Promise<Uint8Array>;
export type SyncSha256 = (data: Uint8Array<ArrayBuffer>) => Uint8Array;

/** The holder's ledger accounts a leaf commits to, in this order. */
export const BALANCE_KINDS = [
  'wallet',
  'earning',
  'rewards',
  'lockedRewards',
  'networkRewards',
  'withdrawalsPending',
] as const;
export type BalanceKind = (typeof BALANCE_KINDS)[number];
export type Balances = Record<BalanceKind, bigint>;

export type TreeNode = { hash: Uint8Array; sum: bigint };
export type LeafInput = { nonce: Uint8Array; userId: bigint; asset: string; balances: Balances };
export type Side = 'left' | 'right';
export type Step = TreeNode & { side: Side };

/** The first byte of a leaf's and of a node's encoding (the server hashes them in SQL too). */
export const LEAF = 0x00;
export const NODE = 0x01;
const MAX_U64 = 2n ** 64n - 1n;
/**
 * The server keeps leaves and rebuilds a 32-leaf chunk per proof; it stores the levels above. A
 * small chunk keeps a proof's request to a few rows and hashes; each day's root records the bits
 * it was built with (proof_roots.chunk_bits), so a day built with other bits still answers.
 */
export const CHUNK_BITS = 5;
export const CHUNK_SIZE = 1 << CHUNK_BITS;

function putAmount(view: DataView, offset: number, value: bigint): void {
  if (value < 0n || value > MAX_U64) throw new RangeError(`amount out of range: ${value}`);
  view.setBigUint64(offset, value);
}

const utf8 = new TextEncoder();

/** The asset as a leaf encodes it: its length (1 byte), then its ASCII bytes. */
export function assetField(asset: string): Uint8Array<ArrayBuffer> {
  const name = utf8.encode(asset);
  if (name.length > 255) throw new RangeError('asset too long');
  const bytes = new Uint8Array(1 + name.length);
  bytes[0] = name.length;
  bytes.set(name, 1);
  return bytes;
}

export function leafBytes(leaf: LeafInput): Uint8Array<ArrayBuffer> {
  const asset = assetField(leaf.asset);
  if (leaf.nonce.length !== 32) throw new RangeError('the nonce is 32 bytes');
  const bytes = new Uint8Array(1 + 32 + 8 + asset.length + 8 * BALANCE_KINDS.length);
  const view = new DataView(bytes.buffer);
  bytes[0] = LEAF;
  bytes.set(leaf.nonce, 1);
  putAmount(view, 33, leaf.userId);
  bytes.set(asset, 41);
  for (const [i, kind] of BALANCE_KINDS.entries()) putAmount(view, 41 + asset.length + 8 * i, leaf.balances[kind]);
  return bytes;
}

const NODE_BYTES = 1 + 32 + 8 + 32 + 8;

/** A node's bytes written into `bytes` (NODE_BYTES long, `view` over it). */
function writeNode(bytes: Uint8Array, view: DataView, left: TreeNode, right: TreeNode): void {
  bytes[0] = NODE;
  bytes.set(left.hash, 1);
  putAmount(view, 33, left.sum);
  bytes.set(right.hash, 41);
  putAmount(view, 73, right.sum);
}

export function nodeBytes(left: TreeNode, right: TreeNode): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(NODE_BYTES);
  writeNode(bytes, new DataView(bytes.buffer), left, right);
  return bytes;
}

// The input of a synchronous node hash, written over for each node: the hash has read it before
// `parent` returns. A tree of a million leaves hashes a million nodes; each allocated its own.
const scratch = new Uint8Array(NODE_BYTES);
const scratchView = new DataView(scratch.buffer);

const leafSum = (balances: Balances): bigint => BALANCE_KINDS.reduce((sum, kind) => sum + balances[kind], 0n);

export const hashLeaf = (leaf: LeafInput, sha: SyncSha256): TreeNode => ({
  hash: sha(leafBytes(leaf)),
  sum: leafSum(leaf.balances),
});

function parent(left: TreeNode, right: TreeNode, sha: SyncSha256): TreeNode {
  writeNode(scratch, scratchView, left, right);
  return { hash: sha(scratch), sum: left.sum + right.sum };
}

/** Every level from the given nodes (level 0) up to the single root (the last level). */
export function buildLevels(nodes: readonly TreeNode[], sha: SyncSha256): TreeNode[][] {
  if (nodes.length === 0) throw new RangeError('a tree needs a leaf');
  const levels: TreeNode[][] = [[...nodes]];
  for (let level = levels[0] as TreeNode[]; level.length > 1; ) {
    const next: TreeNode[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i] as TreeNode;
      const right = level[i + 1];
      next.push(right ? parent(left, right, sha) : left);
    }
    levels.push(next);
    level = next;
  }
  return levels;
}

/** Node counts level by level for `count` nodes at the bottom, up to 1. */
function levelSizes(count: number): number[] {
  const sizes = [count];
  for (let n = count; n > 1; ) {
    n = Math.ceil(n / 2);
    sizes.push(n);
  }
  return sizes;
}

/** Where the siblings of node `index` are, level by level (a carried node has none). */
export function siblingsOf(index: number, count: number): { level: number; index: number; side: Side }[] {
  const out: { level: number; index: number; side: Side }[] = [];
  const sizes = levelSizes(count);
  for (let level = 0, i = index; level < sizes.length - 1; level++, i >>= 1) {
    const sibling = i ^ 1;
    if (sibling < (sizes[level] as number)) out.push({ level, index: sibling, side: sibling < i ? 'left' : 'right' });
  }
  return out;
}

/** The path from node `index` of the bottom level to the root. */
export const pathAt = (levels: readonly TreeNode[][], index: number): Step[] =>
  siblingsOf(index, levels[0]?.length ?? 0).map((s) => ({ ...(levels[s.level]?.[s.index] as TreeNode), side: s.side }));

/**
 * Builds a tree leaf by leaf holding one chunk at a time: the chunk roots are all it keeps, so a
 * million leaves cost their ~31,000 chunk roots in memory, not the whole tree. Its result equals
 * the plain level-by-level build of all the leaves (a full chunk is a power of two leaves), which
 * is how the server builds it in SQL; this builder is the test's oracle for that.
 */
export class ChunkedTreeBuilder {
  private chunk: TreeNode[] = [];
  private readonly roots: TreeNode[] = [];
  private count = 0;
  constructor(private readonly sha: SyncSha256) {}

  add(leaf: TreeNode): void {
    this.chunk.push(leaf);
    this.count++;
    if (this.chunk.length === CHUNK_SIZE) this.flush();
  }

  private flush(): void {
    if (this.chunk.length) this.roots.push(buildLevels(this.chunk, this.sha).at(-1)?.[0] as TreeNode);
    this.chunk = [];
  }

  /** The levels above the chunks (level 0 = the chunk roots) and the root; null for no leaves. */
  finish(): { leaves: number; upper: TreeNode[][]; root: TreeNode } | null {
    this.flush();
    if (this.count === 0) return null;
    const upper = buildLevels(this.roots, this.sha);
    return { leaves: this.count, upper, root: upper.at(-1)?.[0] as TreeNode };
  }
}

const HEX_BYTES = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Bytes as lowercase hex, a byte's two digits looked up (every proof writes some fifty hashes). */
export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += HEX_BYTES[byte];
  return hex;
}

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) throw new RangeError('not hex');
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** A decimal amount of the proof file ("12.5", up to 8 decimals) in units; negatives parse, to be refused by name. */
function unitsOf(text: unknown): bigint | null {
  if (typeof text !== 'string') return null;
  const match = /^(-?)(\d{1,20})(?:\.(\d{1,8}))?$/.exec(text);
  if (!match) return null;
  const value = BigInt(match[2] as string) * 100_000_000n + BigInt((match[3] ?? '').padEnd(8, '0'));
  return match[1] ? -value : value;
}

const hash32 = (text: unknown): Uint8Array | null =>
  typeof text === 'string' && /^[0-9a-fA-F]{64}$/.test(text) ? fromHex(text) : null;

/** Why a proof did not verify, in the order the checks run. */
export type ProofFailure =
  | 'format' // not a proof file of this version
  | 'negative' // a balance or a sum is negative
  | 'leafSum' // the leaf's sum is not the sum of its balances
  | 'leafHash' // the leaf's hash does not match its nonce, user id, asset and balances
  | 'total' // the sums along the path do not add up to the published total
  | 'path' // a sibling's hash is wrong: the path does not lead to the published root
  | 'publishedRoot'; // the proof names another day, asset, root or total than the one published

type ParsedProof = {
  day: string;
  asset: string;
  root: Uint8Array;
  total: bigint;
  leaf: LeafInput & { sum: bigint; hash: Uint8Array };
  path: Step[];
};

export type ProofParse = { ok: true; proof: ParsedProof } | { ok: false; failure: 'format' | 'negative'; step?: number };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Reads a proof file (already JSON-parsed): the shape, hex and decimals, no negative amount. */
export function parseProof(input: unknown): ProofParse {
  const format = { ok: false, failure: 'format' } as const;
  if (!isObject(input) || input.version !== 1 || !isObject(input.leaf) || !Array.isArray(input.path)) return format;
  const { leaf } = input;
  const day = typeof input.day === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(input.day) ? input.day : null;
  const asset = typeof input.asset === 'string' && /^[A-Z]{1,10}$/.test(input.asset) ? input.asset : null;
  const userId = typeof leaf.userId === 'string' && /^\d{1,20}$/.test(leaf.userId) ? BigInt(leaf.userId) : null;
  const [root, nonce, leafHash] = [hash32(input.root), hash32(leaf.nonce), hash32(leaf.hash)];
  const [total, sum] = [unitsOf(input.total), unitsOf(leaf.sum)];
  const raw = isObject(leaf.balances) ? leaf.balances : {};
  const amounts = BALANCE_KINDS.map((kind) => unitsOf(raw[kind]));
  const steps = input.path.map((step: unknown) =>
    isObject(step) && (step.side === 'left' || step.side === 'right')
      ? { side: step.side as Side, hash: hash32(step.hash), sum: unitsOf(step.sum) }
      : null,
  );
  if (!day || !asset || userId === null || userId > MAX_U64 || !root || !nonce || !leafHash) return format;
  if (total === null || sum === null || amounts.some((a) => a === null)) return format;
  if (steps.some((s) => !s?.hash || s.sum === null)) return format;
  if ([total, sum, ...(amounts as bigint[])].some((a) => a < 0n)) return { ok: false, failure: 'negative' };
  const negativeStep = steps.findIndex((s) => (s?.sum as bigint) < 0n);
  if (negativeStep >= 0) return { ok: false, failure: 'negative', step: negativeStep + 1 };
  if ([total, sum, ...(amounts as bigint[]), ...steps.map((s) => s?.sum as bigint)].some((a) => a > MAX_U64)) return format;
  const balances = Object.fromEntries(BALANCE_KINDS.map((kind, i) => [kind, amounts[i]])) as Balances;
  return {
    ok: true,
    proof: {
      day,
      asset,
      root,
      total,
      leaf: { nonce, userId, asset, balances, sum, hash: leafHash },
      path: steps.map((s) => ({ side: s?.side as Side, hash: s?.hash as Uint8Array, sum: s?.sum as bigint })),
    },
  };
}

/** What the platform published for a day and asset (fetched on its own, never taken from the proof). */
export type Published = { day: string; asset: string; root: string; total: string };

export type Verification =
  | { ok: true; day: string; asset: string; sum: bigint; total: bigint }
  | { ok: false; failure: ProofFailure; step?: number };

const equalBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

/**
 * The node a path leads to from `from`: each step hashed with the node so far, on its side; null
 * when a sum passes what a leaf or node can hold.
 */
export async function pathRoot(from: TreeNode, path: readonly Step[], sha: Sha256): Promise<TreeNode | null> {
  let node = from;
  for (const step of path) {
    const sum = node.sum + step.sum;
    if (sum > MAX_U64) return null;
    const bytes = step.side === 'left' ? nodeBytes(step, node) : nodeBytes(node, step);
    node = { hash: await sha(bytes), sum };
  }
  return node;
}

/**
 * Verifies a proof file against the published root: the leaf's sum and hash, then the path up,
 * whose sum must be the published total and whose hash the published root.
 */
export async function verifyProof(input: unknown, published: Published, sha: Sha256): Promise<Verification> {
  const parsed = parseProof(input);
  if (!parsed.ok) return parsed;
  const { proof } = parsed;
  const { leaf } = proof;
  if (leafSum(leaf.balances) !== leaf.sum) return { ok: false, failure: 'leafSum' };
  if (!equalBytes(await sha(leafBytes(leaf)), leaf.hash)) return { ok: false, failure: 'leafHash' };
  const node = await pathRoot({ hash: leaf.hash, sum: leaf.sum }, proof.path, sha);
  if (!node) return { ok: false, failure: 'total' };
  const publishedTotal = unitsOf(published.total);
  const publishedRoot = hash32(published.root);
  if (node.sum !== publishedTotal) return { ok: false, failure: 'total' };
  if (!publishedRoot || !equalBytes(node.hash, publishedRoot)) return { ok: false, failure: 'path' };
  const sameLabels = proof.day === published.day && proof.asset === published.asset;
  if (!sameLabels || !equalBytes(proof.root, publishedRoot) || proof.total !== publishedTotal) {
    return { ok: false, failure: 'publishedRoot' };
  }
  return { ok: true, day: proof.day, asset: proof.asset, sum: leaf.sum, total: node.sum };
}

/** The proof file for one holder: their leaf, the path, and the root and total it leads to. */
export function proofFile(input: {
  day: string;
  asset: string;
  root: TreeNode;
  leaf: LeafInput & TreeNode;
  path: Step[];
}): InclusionProof {
  const { leaf } = input;
  return {
    version: 1,
    day: input.day,
    asset: input.asset as InclusionProof['asset'],
    root: toHex(input.root.hash),
    total: formatUnits(input.root.sum),
    leaf: {
      userId: leaf.userId.toString(),
      nonce: toHex(leaf.nonce),
      balances: Object.fromEntries(BALANCE_KINDS.map((k) => [k, formatUnits(leaf.balances[k])])) as InclusionProof['leaf']['balances'],
      sum: formatUnits(leaf.sum),
      hash: toHex(leaf.hash),
    },
    path: input.path.map((s) => ({ side: s.side, hash: toHex(s.hash), sum: formatUnits(s.sum) })),
  };
}
