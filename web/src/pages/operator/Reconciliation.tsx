import Button from 'antd-mobile/es/components/button';
import Toast from 'antd-mobile/es/components/toast';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EMPTY } from '../../lib/format.ts';
import type { ReconciliationDifference } from '../../../../contract/wallet.ts';
import { TOAST_MS } from '../../api/client.ts';
import { useReconciliation, useResolveDifference } from '../../api/operator.ts';
import { QueryCard } from './QueryCard.tsx';
import { ResolveDialog } from './ResolveDialog.tsx';

/** One side's version, compactly: the JSON it sent, or a dash where that side has nothing. */
const compact = (value: unknown) => (value === null || value === undefined ? EMPTY : JSON.stringify(value));

/** One open difference: day, kind, which transfer (or asset), both sides' versions; Resolve. */
function Difference({ difference }: { difference: ReconciliationDifference }) {
  const { t } = useTranslation();
  const { send, sending } = useResolveDifference(difference.id);
  const [resolving, setResolving] = useState(false);
  const kind = t(`operator.reconciliation.kind.${difference.kind}`);
  const subject =
    difference.kind === 'omnibus'
      ? t('operator.reconciliation.asset', { asset: difference.asset ?? EMPTY })
      : t('operator.reconciliation.transfer', { id: difference.transferId ?? EMPTY });
  const summary = `${difference.day} · ${kind} · ${subject}`;

  const resolve = async (note: string): Promise<boolean> => {
    if (!(await send({ note }))) return false;
    Toast.show({ content: t('operator.reconciliation.resolved'), icon: 'success', duration: TOAST_MS });
    return true;
  };

  return (
    <li className="op-review" aria-label={summary}>
      <div className="record__row">
        <span className="record__type">{kind}</span>
        <span className="op-day__date">{difference.day}</span>
      </div>
      <p className="op-audit__detail">{subject}</p>
      <p className="op-audit__detail">
        {t('operator.reconciliation.platform')} <code className="op-audit__target">{compact(difference.platform)}</code>
      </p>
      <p className="op-audit__detail">
        {t('operator.reconciliation.exchange')} <code className="op-audit__target">{compact(difference.exchange)}</code>
      </p>
      <Button size="small" fill="outline" loading={sending} disabled={sending} onClick={() => setResolving(true)}>
        {t('operator.reconciliation.resolve')}
      </Button>
      <ResolveDialog visible={resolving} summary={summary} onResolve={resolve} onClose={() => setResolving(false)} />
    </li>
  );
}

/** The daily comparison with the exchange: how far it got, and the differences still open. */
export function Reconciliation() {
  const { t } = useTranslation();
  const query = useReconciliation();
  return (
    <QueryCard title={t('operator.reconciliation.title')} query={query} className="op-reconciliation">
      {(data) => (
        <>
          <p className="card__text">
            {data.lastDay
              ? t('operator.reconciliation.through', { day: data.lastDay })
              : t('operator.reconciliation.nothingYet')}
          </p>
          {data.open.length === 0 ? (
            <p className="card__text">{t('operator.reconciliation.none')}</p>
          ) : (
            <ul className="op-days" aria-label={t('operator.reconciliation.list')}>
              {data.open.map((difference) => (
                <Difference key={difference.id} difference={difference} />
              ))}
            </ul>
          )}
        </>
      )}
    </QueryCard>
  );
}
