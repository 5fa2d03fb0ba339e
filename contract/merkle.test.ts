import { createHash, webcrypto } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BALANCE_KINDS,
  type Balances,
  buildLevels,
  ChunkedTreeBuilder,
  CHUNK_SIZE,
  hashLeaf,
  type LeafInput,
  leafBytes,
  nodeBytes,
  pathAt,
  type ProofFailure,
  proofFile,
  type Published,
  type Sha256,
  type SyncSha256,
  toHex,
  type TreeNode,
  verifyProof,
} from './merkle.ts';
import type { InclusionProof } from './proof.ts';

const nodeSha: SyncSha256 = (data) => createHash('sha256').update(data).digest();
/** The browser's way: WebCrypto, asynchronous. */
const subtleSha: Sha256 = async (data) => new Uint8Array(await webcrypto.subtle.digest('SHA-256', data));

const zero: Balances = { wallet: 0n, earning: 0n, rewards: 0n, lockedRewards: 0n, networkRewards: 0n, withdrawalsPending: 0n };

function treeOf(leaves: LeafInput[]) {
  const nodes = leaves.map((leaf) => hashLeaf(leaf, nodeSha));
  const levels = buildLevels(nodes, nodeSha);
  return { nodes, levels, root: levels.at(-1)?.[0] as TreeNode };
}

function proofFor(leaves: LeafInput[], index: number, day = '2026-11-02'): { proof: InclusionProof; published: Published } {
  const { nodes, levels, root } = treeOf(leaves);
  const proof = proofFile({
    day,
    asset: 'AIC',
    root,
    leaf: { ...(leaves[index] as LeafInput), ...(nodes[index] as TreeNode) },
    path: pathAt(levels, index),
  });
  return { proof, published: { day, asset: 'AIC', root: proof.root, total: proof.total } };
}

const amount = fc.bigInt({ min: 0n, max: 10n ** 15n });
const leafArb = fc.record({
  nonce: fc.uint8Array({ minLength: 32, maxLength: 32 }),
  userId: fc.bigInt({ min: 1n, max: 2n ** 63n - 1n }),
  asset: fc.constant('AIC'),
  balances: fc.tuple(amount, amount, amount, amount, amount, amount).map(
    (values) => Object.fromEntries(BALANCE_KINDS.map((k, i) => [k, values[i]])) as Balances,
  ),
});
const treeArb = fc
  .array(leafArb, { minLength: 1, maxLength: 70 })
  .chain((leaves) => fc.record({ leaves: fc.constant(leaves), index: fc.nat({ max: leaves.length - 1 }) }));

const flipHex = (hex: string, at: number) => {
  const i = at % hex.length;
  return `${hex.slice(0, i)}${((Number.parseInt(hex[i] as string, 16) + 1) % 16).toString(16)}${hex.slice(i + 1)}`;
};
const bump = (decimal: string) => {
  const [whole, fraction] = decimal.split('.');
  return `${BigInt(whole as string) + 1n}${fraction ? `.${fraction}` : ''}`;
};

/** Each way of tampering with a proof, and the check that must catch it. */
type Tamper = { name: string; apply: (p: InclusionProof, pub: Published, at: number) => void; failures: ProofFailure[] };
const TAMPERS: Tamper[] = [
  { name: 'a balance', apply: (p, _, at) => { const k = BALANCE_KINDS[at % 6] as keyof InclusionProof['leaf']['balances']; p.leaf.balances[k] = bump(p.leaf.balances[k]); }, failures: ['leafSum'] },
  { name: 'a balance and the leaf sum', apply: (p) => { p.leaf.balances.wallet = bump(p.leaf.balances.wallet); p.leaf.sum = bump(p.leaf.sum); }, failures: ['leafHash'] },
  { name: 'the nonce', apply: (p, _, at) => { p.leaf.nonce = flipHex(p.leaf.nonce, at); }, failures: ['leafHash'] },
  { name: 'the user id', apply: (p) => { p.leaf.userId = (BigInt(p.leaf.userId) + 1n).toString(); }, failures: ['leafHash'] },
  { name: 'the leaf hash', apply: (p, _, at) => { p.leaf.hash = flipHex(p.leaf.hash, at); }, failures: ['leafHash'] },
  { name: 'a sibling hash', apply: (p, _, at) => { const s = p.path[at % p.path.length]; if (s) s.hash = flipHex(s.hash, at); }, failures: ['path'] },
  { name: 'a sibling sum', apply: (p, _, at) => { const s = p.path[at % p.path.length]; if (s) s.sum = bump(s.sum); }, failures: ['total'] },
  { name: 'a sibling side', apply: (p, _, at) => { const s = p.path[at % p.path.length]; if (s) s.side = s.side === 'left' ? 'right' : 'left'; }, failures: ['path'] },
  { name: 'the root in the file', apply: (p, _, at) => { p.root = flipHex(p.root, at); }, failures: ['publishedRoot'] },
  { name: 'the total in the file', apply: (p) => { p.total = bump(p.total); }, failures: ['publishedRoot'] },
  { name: 'the published root', apply: (_, pub, at) => { pub.root = flipHex(pub.root, at); }, failures: ['path'] },
  { name: 'the published total', apply: (_, pub) => { pub.total = bump(pub.total); }, failures: ['total'] },
];

describe('Merkle sum tree of liabilities', () => {
  it('encodes a leaf and a node exactly as documented', () => {
    const leaf: LeafInput = {
      nonce: new Uint8Array(32).fill(0x11),
      userId: 7n,
      asset: 'AIC',
      balances: { ...zero, wallet: 1n, earning: 2n, withdrawalsPending: 3n },
    };
    const amounts = ['1', '2', '0', '0', '0', '3'].map((n) => n.padStart(16, '0')).join('');
    expect(toHex(leafBytes(leaf))).toBe(`00${'11'.repeat(32)}0000000000000007` + `03414943${amounts}`);
    const a = { hash: new Uint8Array(32).fill(0xaa), sum: 5n };
    const b = { hash: new Uint8Array(32).fill(0xbb), sum: 256n };
    expect(toHex(nodeBytes(a, b))).toBe(`01${'aa'.repeat(32)}0000000000000005${'bb'.repeat(32)}0000000000000100`);
    // The documented vector (docs/proof-of-liabilities.md).
    expect(toHex(hashLeaf(leaf, nodeSha).hash)).toBe(createHash('sha256').update(leafBytes(leaf)).digest('hex'));
  });

  it('pairs left to right and carries an odd last node up unchanged, never doubling its sum', () => {
    const leaves = [1n, 2n, 4n].map((wallet, i) => ({ nonce: new Uint8Array(32).fill(i), userId: BigInt(i + 1), asset: 'AIC', balances: { ...zero, wallet } }));
    const { nodes, root } = treeOf(leaves);
    const [l0, l1, l2] = nodes as [TreeNode, TreeNode, TreeNode];
    const left = { hash: nodeSha(nodeBytes(l0, l1)), sum: 3n };
    expect(root).toEqual({ hash: nodeSha(nodeBytes(left, l2)), sum: 7n });
  });

  it('refuses negative amounts rather than hashing them', () => {
    const leaf: LeafInput = { nonce: new Uint8Array(32), userId: 1n, asset: 'AIC', balances: { ...zero, wallet: -1n } };
    expect(() => leafBytes(leaf)).toThrow(RangeError);
  });

  it('builds the same root chunk by chunk as in one piece', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 * CHUNK_SIZE + 5 }), (count) => {
        const nodes = Array.from({ length: count }, (_, i) => ({ hash: nodeSha(new Uint8Array([i & 255, i >> 8])), sum: BigInt(i) }));
        const builder = new ChunkedTreeBuilder(nodeSha);
        for (const node of nodes) builder.add(node);
        const built = builder.finish();
        expect(built?.root).toEqual(buildLevels(nodes, nodeSha).at(-1)?.[0]);
        expect(built?.leaves).toBe(count);
      }),
      { numRuns: 25 },
    );
  });

  it('verifies every holder’s proof of a random tree with WebCrypto, to the leaf sum and the root total', async () => {
    await fc.assert(
      fc.asyncProperty(treeArb, async ({ leaves, index }) => {
        const { proof, published } = proofFor(leaves, index);
        const result = await verifyProof(JSON.parse(JSON.stringify(proof)), published, subtleSha);
        const total = leaves.reduce((sum, leaf) => sum + Object.values(leaf.balances).reduce((a, b) => a + b, 0n), 0n);
        expect(result).toEqual({ ok: true, day: '2026-11-02', asset: 'AIC', sum: hashLeaf(leaves[index] as LeafInput, nodeSha).sum, total });
      }),
      { numRuns: 150 },
    );
  });

  it('fails a proof changed in any leaf field, sibling hash or sum, or root, saying what failed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(leafArb, { minLength: 2, maxLength: 70 }),
        fc.nat(),
        fc.nat(),
        fc.nat({ max: TAMPERS.length - 1 }),
        async (leaves, pick, at, which) => {
          const tamper = TAMPERS[which] as Tamper;
          const { proof, published } = proofFor(leaves, pick % leaves.length);
          tamper.apply(proof, published, at);
          const result = await verifyProof(proof, published, nodeSha);
          expect(result.ok, tamper.name).toBe(false);
          if (!result.ok) expect(tamper.failures, tamper.name).toContain(result.failure);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('names a negative sibling sum, a proof of another day, and a file that is no proof', async () => {
    const leaves = [5n, 6n, 7n].map((wallet, i) => ({ nonce: new Uint8Array(32).fill(i), userId: BigInt(i + 1), asset: 'AIC', balances: { ...zero, wallet } }));
    const { proof, published } = proofFor(leaves, 0);
    const negative = structuredClone(proof);
    (negative.path[1] as { sum: string }).sum = '-1';
    expect(await verifyProof(negative, published, nodeSha)).toEqual({ ok: false, failure: 'negative', step: 2 });
    expect(await verifyProof(proof, { ...published, day: '2026-11-03' }, nodeSha)).toEqual({ ok: false, failure: 'publishedRoot' });
    for (const junk of [null, 'proof', { ...proof, version: 2 }, { ...proof, path: [{ side: 'up' }] }, { ...proof, total: '1e3' }]) {
      expect(await verifyProof(junk, published, nodeSha)).toEqual({ ok: false, failure: 'format' });
    }
  });
});
