import { useQuery } from '@tanstack/react-query';
import { PATHS } from '../../../contract/paths.ts';
import type { InclusionProof, ProofRootData } from '../../../contract/proof.ts';
import { apiGet } from './client.ts';

const proofKeys = {
  root: (day?: string) => ['proof', 'root', day ?? 'latest'] as const,
};

/** The roots the platform published for a day (public), the latest by default. */
export const fetchPublished = (day?: string) => apiGet<ProofRootData>(PATHS.proofRoot, { day });

/** Always asked again when a screen shows it: a new day may have been published since. */
export const usePublishedRoot = () =>
  useQuery({ queryKey: proofKeys.root(), queryFn: () => fetchPublished(), staleTime: 0 });

/** The signed-in holder's own proof (no toast: the page says why there is none). */
export const fetchMyProof = (asset: string, day?: string) =>
  apiGet<InclusionProof>(PATHS.proofMine, { asset, day }, { toast: false });
