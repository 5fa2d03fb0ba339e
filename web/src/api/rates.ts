import { useQuery } from '@tanstack/react-query';
import { PATHS } from '../../../contract/paths.ts';
import type { RateHistoryData } from '../../../contract/rates.ts';
import { apiGet } from './client.ts';

/** Every version of the earn terms, with the notice period (public: no sign-in needed). */
export const useRateHistory = () =>
  useQuery({ queryKey: ['earn', 'rates'] as const, queryFn: () => apiGet<RateHistoryData>(PATHS.rateHistory) });
