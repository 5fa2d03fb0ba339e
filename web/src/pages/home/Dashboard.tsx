import { useTranslation } from 'react-i18next';
import { useDashboard } from '../../api/queries.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { SavedFigures } from '../../components/SavedFigures.tsx';
import { DashboardView } from './DashboardView.tsx';

/** Home's signed-in figures from the server (loaded with the query cache, see HomePage). */
export function Dashboard() {
  const { t } = useTranslation();
  const { data, isError, refetch } = useDashboard();
  if (isError && !data) return <LoadFailed message={t('home.loadFailed')} onRetry={() => void refetch()} />;
  return (
    <>
      <SavedFigures />
      <DashboardView data={data} />
    </>
  );
}
