import { type ProofFailure, parseProof, type Sha256, verifyProof } from '../../../../contract/merkle.ts';
import { fetchPublished } from '../../api/proof.ts';

/** The browser's SHA-256: WebCrypto (only in a secure context: https or localhost). */
const subtleSha256: Sha256 = async (data) => new Uint8Array(await crypto.subtle.digest('SHA-256', data));

export type Outcome =
  | { ok: true; day: string; asset: string; sum: bigint; total: bigint }
  | { ok: false; failure: ProofFailure | 'notPublished' | 'noCrypto'; step?: number };

/**
 * Checks a proof file against the root the platform published for its day, fetched on its own:
 * never the root the file names.
 */
export async function checkProof(json: unknown): Promise<Outcome> {
  if (!globalThis.crypto?.subtle) return { ok: false, failure: 'noCrypto' };
  const parsed = parseProof(json);
  if (!parsed.ok) return parsed;
  const { day, asset } = parsed.proof;
  const published = (await fetchPublished(day)).roots.find((r) => r.asset === asset);
  if (!published) return { ok: false, failure: 'notPublished' };
  return verifyProof(json, { day, asset, root: published.root, total: published.total }, subtleSha256);
}

/** The file a holder keeps: the proof as pretty JSON. */
export function saveJson(name: string, value: unknown): void {
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(value, null, 2)}\n`], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
