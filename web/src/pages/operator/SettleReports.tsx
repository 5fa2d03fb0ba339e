import { useTranslation } from 'react-i18next';
import type { SettleData } from '../../../../contract/operator.ts';
import { Figure } from '../../components/Figure.tsx';
import { formatCount, formatDateTime } from '../../lib/format.ts';
import { ShortfallText, StatusTag } from './StatusTag.tsx';

const COUNTS = ['fixed', 'staticRows', 'current', 'rebates', 'released', 'matured', 'renewed', 'ended'] as const;

/** What a settlement run did, day by day, and the server's time after it. */
export function SettleReports({ result }: { result: SettleData }) {
  const { t } = useTranslation();
  return (
    <section className="card" aria-label={t('operator.settle.result')}>
      <h2 className="card__title">{t('operator.settle.result')}</h2>
      <p className="card__text">{t('operator.settle.now', { time: formatDateTime(result.now) })}</p>
      {result.reports.length === 0 ? (
        <p className="card__text">{t('operator.settle.nothingDue')}</p>
      ) : (
        <ul className="op-reports" aria-label={t('operator.settle.reports')}>
          {result.reports.map((report) => (
            <li key={report.day} className="op-report" aria-label={report.day}>
              <div className="op-day">
                <span className="op-day__date">{report.day}</span>
                <ShortfallText shortfall={report.shortfall} />
                <StatusTag status={report.status} />
              </div>
              <dl className="figures op-report__figures">
                {COUNTS.map((count) => (
                  <Figure key={count} label={t(`operator.settle.count.${count}`)} value={String(report[count])} />
                ))}
                <Figure label={t('operator.settle.duration')} value={t('operator.settle.ms', { ms: formatCount(report.durationMs) })} />
              </dl>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
