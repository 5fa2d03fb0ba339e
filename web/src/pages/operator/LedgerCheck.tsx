import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import type { LedgerCheckData } from '../../../../contract/operator.ts';
import { EMPTY, formatAmount, formatCount, formatFigure } from '../../lib/format.ts';
import { useLedgerCheck } from '../../api/operator.ts';
import { Figure } from '../../components/Figure.tsx';
import { QueryCard } from './QueryCard.tsx';
import { ShortfallText, StatusTag } from './StatusTag.tsx';
import { TreeCheck } from './TreeCheck.tsx';

/** The books can balance while the referral tree does not: say which failed. */
function hintKey(data: LedgerCheckData): string {
  if (data.ok) return 'operator.ledger.okHint';
  const booksBalance =
    Object.values(data.assetSums).every((sum) => /^0(\.0+)?$/.test(sum)) &&
    data.negativeUserAccounts === 0 &&
    data.accountsNotMatchingPostings === 0;
  return booksBalance && !data.tree.ok ? 'operator.ledger.treeFailedHint' : 'operator.ledger.failedHint';
}

/** Green when every asset sums to zero, no user balance is negative and the referral tree is sound; red otherwise. */
function Verdict({ data }: { data: LedgerCheckData }) {
  const { t } = useTranslation();
  return (
    <div className={data.ok ? 'op-verdict op-verdict--ok' : 'op-verdict op-verdict--failed'} data-testid="ledger-verdict">
      <p className="op-verdict__title">{t(data.ok ? 'operator.ledger.ok' : 'operator.ledger.failed')}</p>
      <p className="op-verdict__hint">{t(hintKey(data))}</p>
    </div>
  );
}

function Coverage({ coverage }: { coverage: LedgerCheckData['coverage'] }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="op-subhead">
        <h3 className="op-subhead__title">{t('operator.ledger.coverage')}</h3>
        <Tag color={coverage.covered ? 'success' : 'danger'} fill="outline">
          {t(coverage.covered ? 'operator.ledger.covered' : 'operator.ledger.notCovered')}
        </Tag>
      </div>
      <dl className="figures">
        <Figure label={t('operator.account.treasury')} value={formatAmount(coverage.treasury)} unit="AIC" />
        <Figure label={t('operator.account.supercomputing_pool')} value={formatAmount(coverage.pool)} unit="AIC" />
        <Figure label={t('operator.ledger.fixedNextDay')} value={formatAmount(coverage.fixedNextDay)} unit="AIC" />
        <Figure
          label={t('operator.ledger.daysCovered')}
          value={coverage.treasuryDays === null ? EMPTY : formatCount(coverage.treasuryDays)}
        />
      </dl>
      {coverage.treasuryDays === null && <p className="field__note">{t('operator.ledger.nothingDue')}</p>}
    </>
  );
}

function RecentDays({ days }: { days: LedgerCheckData['days'] }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="op-subhead">
        <h3 className="op-subhead__title">{t('operator.ledger.days')}</h3>
      </div>
      {days.length === 0 ? (
        <p className="card__text">{t('operator.ledger.noDays')}</p>
      ) : (
        <ul className="op-days" aria-label={t('operator.ledger.days')}>
          {days.map((day) => (
            <li key={day.day} className="op-day">
              <span className="op-day__date">{day.day}</span>
              <ShortfallText shortfall={day.shortfall} />
              <StatusTag status={day.status} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The ledger's own check, the payout coverage, and the last settlement days. */
export function LedgerCheck() {
  const { t } = useTranslation();
  const query = useLedgerCheck();
  return (
    <QueryCard title={t('operator.ledger.title')} query={query} className="op-ledger">
      {(data) => (
        <>
          <Verdict data={data} />
          <dl className="figures">
            {Object.entries(data.assetSums).map(([asset, sum]) => (
              <Figure key={asset} label={t('operator.ledger.sum', { asset })} value={formatFigure(sum)} />
            ))}
            <Figure label={t('operator.ledger.negative')} value={String(data.negativeUserAccounts)} />
            <Figure label={t('operator.ledger.mismatched')} value={String(data.accountsNotMatchingPostings)} />
          </dl>
          <TreeCheck tree={data.tree} />
          <Coverage coverage={data.coverage} />
          <RecentDays days={data.days} />
        </>
      )}
    </QueryCard>
  );
}
