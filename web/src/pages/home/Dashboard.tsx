import Skeleton from 'antd-mobile/es/components/skeleton';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatFigure, signOf } from '../../../../contract/format.ts';
import { useDashboard } from '../../api/queries.ts';
import { Figure } from '../../components/Figure.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { ActivityEntry } from '../activity/ActivityEntry.tsx';
import { PlatformFigures } from './PlatformFigures.tsx';

/** Home, signed in: the holder's total, the price, the pools and the platform's figures. */
export function Dashboard() {
  const { t } = useTranslation();
  const { data, isPending, isError, refetch } = useDashboard();
  if (isPending) return <Skeleton.Paragraph lineCount={5} animated className="card" />;
  if (isError || !data) {
    return (
      <LoadFailed message={t('home.loadFailed')} onRetry={() => void refetch()} />
    );
  }
  const sign = signOf(data.priceRate);
  const tone = sign > 0 ? 'up' : sign < 0 ? 'down' : undefined;
  return (
    <>
      <section className="card card--hero" aria-label={t('home.totalAmount')}>
        <p className="card__label">{t('home.totalAmount')}</p>
        <p className="card__big" data-testid="total-amount">
          {formatAmount(data.totalAmount)} <span className="figure__unit">AIC</span>
        </p>
        <dl className="figures figures--row">
          <Figure label={t('home.price')} value={`$${formatFigure(data.price)}`} />
          <Figure
            label={t('home.priceRate')}
            value={data.priceRate === null ? formatFigure(null) : `${tone === 'up' ? '+' : ''}${formatFigure(data.priceRate)}%`}
            {...(tone ? { tone } : {})}
          />
        </dl>
      </section>
      <section className="card" aria-label={t('home.pools')}>
        <h2 className="card__title">{t('home.pools')}</h2>
        <dl className="figures">
          <Figure label={t('home.pool1')} value={formatAmount(data.pool1)} unit="AIC" />
          <Figure label={t('home.pool2')} value={formatAmount(data.pool2)} unit="USDT" />
          <Figure label={t('home.pool')} value={formatAmount(data.pool)} unit="AIC" />
        </dl>
      </section>
      <PlatformFigures figures={data.figures} />
      <ActivityEntry />
    </>
  );
}
