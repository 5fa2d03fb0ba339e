import { useQueryClient } from '@tanstack/react-query';
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { operatorKeys } from '../../api/operator.ts';
import { useUserInfo } from '../../api/queries.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { AccessDenied } from './AccessDenied.tsx';
import { AuditLog } from './AuditLog.tsx';
import { ConsoleTabs, panelId, TABS, type TabKey, tabId } from './ConsoleTabs.tsx';
import { FundForm } from './FundForm.tsx';
import { FundingQueue } from './FundingQueue.tsx';
import { LedgerCheck } from './LedgerCheck.tsx';
import { ParamForm } from './ParamForm.tsx';
import { ParamsList } from './ParamsList.tsx';
import { Reconciliation } from './Reconciliation.tsx';
import { ReviewQueue } from './ReviewQueue.tsx';
import { SettlementSection } from './SettlementSection.tsx';
import { useServerToday } from './useServerToday.ts';
import './operator.css';
import { LoadFailed } from '../../components/LoadFailed.tsx';

/** One duty's panel (mounted on first visit, then kept while hidden so forms keep their input). */
function Panel({ tab, today, onServerNow }: { tab: TabKey; today: string; onServerNow: (now: string) => void }) {
  switch (tab) {
    case 'reviews':
      return <ReviewQueue />;
    case 'ledger':
      return (
        <>
          <LedgerCheck />
          <Reconciliation />
        </>
      );
    case 'fund':
      return (
        <>
          <FundForm />
          <FundingQueue />
        </>
      );
    case 'params':
      return (
        <>
          <ParamsList today={today} />
          <ParamForm today={today} />
        </>
      );
    case 'settle':
      return <SettlementSection today={today} onServerNow={onServerNow} />;
    case 'audit':
      return <AuditLog />;
  }
}

/** The console itself: one tab per duty; a pull refreshes every operator figure. */
function Console() {
  const base = useId();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<TabKey>(TABS[0]);
  const [visited, setVisited] = useState<ReadonlySet<TabKey>>(() => new Set([TABS[0]]));
  // The server's clock may run ahead (demo): settlement answers tell where it is.
  const [serverNow, setServerNow] = useState<string | null>(null);
  const today = useServerToday(serverNow);
  const open = (key: TabKey) => {
    setTab(key);
    setVisited((seen) => (seen.has(key) ? seen : new Set([...seen, key])));
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: operatorKeys.all });
  return (
    <>
      <ConsoleTabs base={base} value={tab} onChange={open} />
      <PullToRefresh onRefresh={refresh}>
        {TABS.filter((key) => visited.has(key)).map((key) => (
          <div key={key} role="tabpanel" id={panelId(base, key)} aria-labelledby={tabId(base, key)} hidden={key !== tab}>
            <Panel tab={key} today={today} onServerNow={setServerNow} />
          </div>
        ))}
      </PullToRefresh>
    </>
  );
}

/**
 * The operator console (PRODUCT.md, Operator): reviews, the ledger check, funding, parameters,
 * settlement and the audit log. Anyone not configured as an operator sees "Access denied".
 */
export function OperatorPage() {
  const { t } = useTranslation();
  const { data, isPending, isError, refetch } = useUserInfo();
  let body = <Skeleton.Paragraph lineCount={6} animated className="card" />;
  if (data) body = data.isOperator ? <Console /> : <AccessDenied />;
  else if (!isPending && isError) {
    body = (
      <LoadFailed message={t('operator.loadFailed')} onRetry={() => void refetch()} />
    );
  }
  return (
    <main className="page page--operator">
      <PageHeader title={t('title.operator')} />
      {body}
    </main>
  );
}
