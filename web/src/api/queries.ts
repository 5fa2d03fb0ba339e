import { useQuery } from '@tanstack/react-query';
import type { UserInfoData } from '../../../contract/auth.ts';
import type { HomeData } from '../../../contract/dashboard.ts';
import { PATHS } from '../../../contract/paths.ts';
import { storage } from '../lib/storage.ts';
import { apiGet } from './client.ts';

export const queryKeys = {
  home: ['home'] as const,
  userInfo: ['userInfo'] as const,
  /** Every wallet query starts with this key (money moves invalidate it: MONEY_QUERIES). */
  wallet: ['wallet'] as const,
  asset: ['wallet', 'asset'] as const,
  exchangeBalances: ['wallet', 'exchangeBalances'] as const,
  transferPage: ['wallet', 'transferPage'] as const,
  transferRecords: (filter: object) => ['wallet', 'records', filter] as const,
  /** Every earn query starts with this key (money moves invalidate it: MONEY_QUERIES). */
  earn: ['earn'] as const,
  productInfo: ['earn', 'productInfo'] as const,
  orders: (list: string, filter: object) => ['earn', 'orders', list, filter] as const,
  order: (id: string) => ['earn', 'order', id] as const,
  rewardLog: (kind: string) => ['earn', 'rewardLog', kind] as const,
  dailyIncome: ['earn', 'dailyIncome'] as const,
  /** Every team query starts with this key: network income, its lock-ups, invitation records. */
  team: ['team'] as const,
  zeroProfit: ['team', 'zeroProfit'] as const,
  zeroLog: ['team', 'zeroLog'] as const,
  inviteRecords: ['team', 'inviteRecords'] as const,
};

/**
 * Everything a money movement (a wallet move, a subscription, a redemption, a claim, a bind)
 * can change, for every money action to invalidate: balances and records, products and orders,
 * earnings and the network income's tier, and home's platform totals. One list, so that no
 * cached screen keeps showing a figure some other screen's action has changed.
 */
export const MONEY_QUERIES = [queryKeys.wallet, queryKeys.earn, queryKeys.team, queryKeys.userInfo, queryKeys.home] as const;

export const useDashboard = () =>
  useQuery({ queryKey: queryKeys.home, queryFn: () => apiGet<HomeData>(PATHS.home) });

/** The signed-in user; kept in storage under userInfo (spec section 3) as well. */
export const useUserInfo = () =>
  useQuery({
    queryKey: queryKeys.userInfo,
    queryFn: async () => {
      const info = await apiGet<UserInfoData>(PATHS.userInfo);
      storage.set('userInfo', JSON.stringify(info));
      return info;
    },
  });
