import ErrorBlock from 'antd-mobile/es/components/error-block';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMonthlyStatement } from '../../api/statement.ts';
import { Loading, PagedList } from '../../components/PagedList.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { AssetCard } from './AssetCard.tsx';
import { ExportButton } from './ExportButton.tsx';
import { MonthBar } from './MonthBar.tsx';
import { MovementItem } from './MovementItem.tsx';
import './statement.css';
import { LoadFailed } from '../../components/LoadFailed.tsx';

/**
 * The monthly statement: a month picker, per asset the opening balance, money in (from outside),
 * earnings, money out and the closing balance, the month's movements oldest first, and the whole
 * history as a CSV file.
 */
export function StatementPage() {
  const { t } = useTranslation();
  // null: the server's current month (its clock decides what "now" is).
  const [month, setMonth] = useState<string | null>(null);
  const [latest, setLatest] = useState<string | null>(null);
  const query = useMonthlyStatement(month);
  const first = query.data?.pages[0];
  const shown = month ?? first?.month ?? null;

  useEffect(() => {
    if (month === null && first) setLatest(first.month);
  }, [month, first]);

  let body: ReactNode;
  if (query.isPending) body = <Loading />;
  else if (!first) {
    body = (
      <LoadFailed message={t('statement.loadFailed')} onRetry={() => void query.refetch()} />
    );
  } else if (first.assets.length === 0 && first.movements.length === 0) {
    body = <ErrorBlock status="empty" title={t('statement.empty')} description="" className="card statement-empty" />;
  } else {
    body = (
      <>
        {first.assets.map((asset) => (
          <AssetCard key={asset.asset} statement={asset} />
        ))}
        <section className="card records" aria-label={t('statement.movements')}>
          <h2 className="card__title">{t('statement.movements')}</h2>
          <PagedList
            query={query}
            label={t('statement.movements')}
            failed={t('statement.loadFailed')}
            render={(movement) => (
              <MovementItem key={`${movement.entryId}|${movement.asset}|${movement.account}`} movement={movement} />
            )}
          />
        </section>
      </>
    );
  }

  return (
    <main className="page page--statement">
      <PageHeader title={t('statement.title')} />
      <MonthBar month={shown} latest={latest} onChange={setMonth} />
      <p className="statement-note">{t('statement.utcNote')}</p>
      <p className="statement-note">{t('statement.flowNote')}</p>
      {body}
      <div className="actions">
        <ExportButton />
        <p className="statement-note">{t('statement.exportNote')}</p>
      </div>
    </main>
  );
}
