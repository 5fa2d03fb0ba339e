import { useTranslation } from 'react-i18next';
import { useDashboard, useUserInfo } from '../../api/queries.ts';
import { useAsset } from '../../api/wallet.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { SavedFigures } from '../../components/SavedFigures.tsx';
import { DashboardView } from './DashboardView.tsx';

/** Home's signed-in figures from the server, the platform's and the holder's own (loaded with the query cache, see HomePage). */
export function Dashboard() {
  const { t } = useTranslation();
  const { data, isError, refetch } = useDashboard();
  const asset = useAsset().data;
  const yesterday = useUserInfo().data?.earnings.yesterday;
  if (isError && !data) return <LoadFailed message={t('home.loadFailed')} onRetry={() => void refetch()} />;
  return (
    <>
      <SavedFigures />
      <DashboardView data={data} mine={{ asset, yesterday }} />
    </>
  );
}
