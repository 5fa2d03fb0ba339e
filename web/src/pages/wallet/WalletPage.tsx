import { useQueryClient } from '@tanstack/react-query';
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TransferType } from '../../../../contract/wallet.ts';
import { queryKeys } from '../../api/queries.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { AssetSummary } from './AssetSummary.tsx';
import { MoveSheet } from './MoveSheet.tsx';
import { TransferRecords } from './TransferRecords.tsx';
import { WalletActions } from './WalletActions.tsx';
import { Bell } from '../../components/Bell.tsx';

/** The asset wallet: total assets, the four moves, transfer records (logout is under My). */
export function WalletPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // Each opening mounts a fresh form (the counter), also while the last one is still closing.
  const [move, setMove] = useState<{ type: TransferType; opening: number } | null>(null);
  const open = (type: TransferType) => setMove((last) => ({ type, opening: (last?.opening ?? 0) + 1 }));

  // Balances and records (every loaded page) come back fresh before the spinner goes; the
  // exchange's line is asked again too, and fills in when the exchange answers.
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.exchangeBalances });
    return queryClient.invalidateQueries({
      queryKey: queryKeys.wallet,
      predicate: (query) => query.queryKey[1] !== queryKeys.exchangeBalances[1],
    });
  };

  return (
    <main className="page page--wallet">
      <PageHeader title={t('title.wallet')} right={<Bell />} />
      <PullToRefresh onRefresh={refresh}>
        <AssetSummary />
        <WalletActions onOpen={open} />
        <TransferRecords />
        <Link className="text-link" to="/statement">
          {t('statement.title')} <span aria-hidden="true">→</span>
        </Link>
      </PullToRefresh>
      {move && <MoveSheet key={move.opening} type={move.type} onClosed={() => setMove(null)} />}
    </main>
  );
}
