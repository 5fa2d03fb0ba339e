import { useQuery } from '@tanstack/react-query';
import type { HomeData } from '../../../contract/dashboard.ts';
import { PATHS } from '../../../contract/paths.ts';
import { apiGet } from './client.ts';

export const queryKeys = {
  home: ['home'] as const,
};

export const useDashboard = () =>
  useQuery({ queryKey: queryKeys.home, queryFn: () => apiGet<HomeData>(PATHS.home) });
