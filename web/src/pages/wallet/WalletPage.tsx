import { useQueryClient } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { TransferType } from '../../../../contract/wallet.ts';
import { queryKeys } from '../../api/queries.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useSession } from '../../session/useSession.ts';
import { AssetSummary } from './AssetSummary.tsx';
import { MoveSheet } from './MoveSheet.tsx';
import { TransferRecords } from './TransferRecords.tsx';
import { WalletActions } from './WalletActions.tsx';
import { Bell } from '../../components/Bell.tsx';

/** The asset wallet: total assets, the four moves, transfer records, and logout. */
export function WalletPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { logout } = useSession();
  // Each opening mounts a fresh form (the counter), also while the last one is still closing.
  const [move, setMove] = useState<{ type: TransferType; opening: number } | null>(null);
  const open = (type: TransferType) => setMove((last) => ({ type, opening: (last?.opening ?? 0) + 1 }));

  // Balances and records (every loaded page) come back fresh before the spinner goes.
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.wallet });

  // Leave this signed-in-only screen first: signed out here, the layout would send the window
  // home, whose start-up authorises at once, before the logout message and its 1 s pause.
  const signOut = () => {
    navigate('/home', { replace: true });
    void logout();
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
        <div className="actions wallet-logout">
          <Button block fill="outline" size="large" onClick={signOut}>
            {t('common.logout')}
          </Button>
        </div>
      </PullToRefresh>
      {move && <MoveSheet key={move.opening} type={move.type} onClosed={() => setMove(null)} />}
    </main>
  );
}
