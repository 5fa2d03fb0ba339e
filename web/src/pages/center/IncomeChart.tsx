import Button from 'antd-mobile/es/components/button';
import Skeleton from 'antd-mobile/es/components/skeleton';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatCount, formatDay } from '../../lib/format.ts';
import { formatUnits } from '../../../../contract/money.ts';
import { useDailyIncome } from '../../api/earn.ts';
import { MiniChart } from '../../components/MiniChart.tsx';
import { unitsOf } from '../../lib/amount.ts';

const shown = (units: bigint) => formatAmount(formatUnits(units));

/** The user's income per day over the last 30 days (all products), as bars. */
export function IncomeChart() {
  const { t } = useTranslation();
  const { data, isPending, isError, refetch } = useDailyIncome();
  let body: ReactNode;
  if (isPending) body = <Skeleton.Paragraph lineCount={4} animated />;
  else if (isError || !data) {
    body = (
      <div className="records__state">
        <p>{t('earn.income.failed')}</p>
        <Button size="small" onClick={() => void refetch()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  } else {
    const points = data.days.map((d) => ({ label: d.day.slice(5), value: unitsOf(d.amount) ?? 0n }));
    const total = points.reduce((sum, p) => sum + p.value, 0n);
    let best = 0;
    points.forEach((p, i) => {
      if (p.value > (points[best]?.value ?? 0n)) best = i;
    });
    const summary =
      total > 0n
        ? t('earn.income.summary', {
            total: shown(total),
            days: formatCount(points.length),
            best: shown(points[best]?.value ?? 0n),
            day: formatDay(data.days[best]?.day),
          })
        : t('earn.income.summaryNone', { days: formatCount(points.length) });
    body = <MiniChart variant="bars" title={t('earn.income.title')} summary={summary} points={points} formatValue={shown} />;
  }
  return (
    <section className="card" aria-label={t('earn.income.title')}>
      <h2 className="card__title">{t('earn.income.title')}</h2>
      {body}
    </section>
  );
}
