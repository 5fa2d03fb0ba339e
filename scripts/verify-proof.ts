/**
 * Checks a holder's proof of liabilities against the published root:
 *   npm run verify-proof -- <proof.json> [--root <hex>]
 * Without --root it asks the platform ($PUBLIC_URL/api/proof/root?day=…, default
 * http://localhost:$PORT) what it published for the proof's day; a root given by hand is
 * enough on its own, since the root's hash commits to the total. Prints OK or what failed;
 * exits 0 when the proof holds, 1 otherwise.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { EnvelopeOf } from '../contract/envelope.ts';
import { type ProofFailure, type Published, parseProof, type SyncSha256, verifyProof } from '../contract/merkle.ts';
import { formatUnits } from '../contract/money.ts';
import { PATHS } from '../contract/paths.ts';
import type { ProofRootData } from '../contract/proof.ts';

const sha256: SyncSha256 = (data) => createHash('sha256').update(data).digest();

export const FAILURES: Record<ProofFailure, string> = {
  format: 'the file is not a proof of liabilities (version 1)',
  negative: 'a balance or a sum is negative',
  leafSum: "the leaf's sum is not the sum of its balances",
  leafHash: "the leaf's hash does not match its nonce, user id, asset and balances",
  total: 'the sums along the path do not add up to the published total',
  path: 'a sibling hash is wrong: the path does not lead to the published root',
  publishedRoot: 'the proof names another day, asset, root or total than the one published',
};

type Options = { root?: string | undefined; baseUrl: string; fetch?: typeof fetch };

/** The check itself: a line to print and whether the proof holds. */
export async function verifyProofFile(file: string, options: Options): Promise<{ ok: boolean; message: string }> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    return { ok: false, message: `FAILED: cannot read ${file}: ${(error as Error).message}` };
  }
  const parsed = parseProof(json);
  if (!parsed.ok) return { ok: false, message: `FAILED: ${FAILURES[parsed.failure]}` };
  const { day, asset, total } = parsed.proof;
  let published: Published;
  if (options.root) {
    published = { day, asset, root: options.root.toLowerCase(), total: formatUnits(total) };
  } else {
    const url = `${options.baseUrl}${PATHS.proofRoot}?day=${day}`;
    const answer = (await (options.fetch ?? fetch)(url)
      .then((r) => r.json())
      .catch((error: Error) => ({ data: null, msg: error.message }))) as EnvelopeOf<ProofRootData | null>;
    if (!answer.data) return { ok: false, message: `FAILED: cannot get the published root from ${url}: ${answer.msg}` };
    const root = answer.data.roots.find((r) => r.asset === asset);
    if (!root) return { ok: false, message: `FAILED: nothing is published for ${asset} on ${day} at ${options.baseUrl}` };
    published = { day, asset, root: root.root, total: root.total };
  }
  const result = await verifyProof(json, published, sha256);
  if (!result.ok) {
    const step = result.step ? ` (step ${result.step})` : '';
    return { ok: false, message: `FAILED: ${FAILURES[result.failure]}${step}` };
  }
  return {
    ok: true,
    message: `OK: ${formatUnits(result.sum)} ${asset} of user ${parsed.proof.leaf.userId} is included in the total ${formatUnits(result.total)} ${asset} published for ${day} (root ${published.root})`,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const rootAt = args.indexOf('--root');
  const root = rootAt >= 0 ? args[rootAt + 1] : undefined;
  const file = args.find((arg, i) => !arg.startsWith('--') && (rootAt < 0 || i !== rootAt + 1));
  if (!file || (rootAt >= 0 && !/^[0-9a-fA-F]{64}$/.test(root ?? ''))) {
    console.error('usage: npm run verify-proof -- <proof.json> [--root <64 hex digits>]');
    process.exit(1);
  }
  const baseUrl = (process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, '');
  const result = await verifyProofFile(file, { root, baseUrl }).catch((error: Error) => ({
    ok: false,
    message: `FAILED: ${error.message}`,
  }));
  console.log(result.message);
  process.exit(result.ok ? 0 : 1);
}
