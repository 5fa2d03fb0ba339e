import ErrorBlock from 'antd-mobile/es/components/error-block';
import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import type { RateVersion } from '../../../../contract/rates.ts';
import { useRateHistory } from '../../api/rates.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Loading } from '../../components/PagedList.tsx';
import { paramLabelKey, paramValueItems } from '../operator/params.ts';
import { ListValue } from '../../components/ListValue.tsx';
import { formatCount, formatDay } from '../../lib/format.ts';

const STATUS_COLOR = { in_force: 'success', upcoming: 'warning', past: 'default' } as const;

/** Every change of the earn terms and team rules, newest first per term, with the notice holders get. */
export function RatesPage() {
  const { t } = useTranslation();
  const history = useRateHistory();
  const names = [...new Set(history.data?.items.map((v) => v.name) ?? [])];
  return (
    <main className="page">
      <PageHeader title={t('title.rates')} />
      <section className="card">
        <p className="card__text">{t('rates.notice', { days: history.data ? formatCount(history.data.noticeDays) : '--' })}</p>
        <p className="card__text">{t('rates.teamNotice')}</p>
      </section>
      {history.isPending && <Loading />}
      {history.isError && <ErrorBlock status="disconnected" title={t('rates.failed')} description="" />}
      {names.map((name) => {
        const label = t(paramLabelKey(name) ?? name);
        const versions = (history.data?.items ?? []).filter((v) => v.name === name).reverse();
        return (
          <section key={name} className="card records" aria-label={label}>
            <h2 className="card__title">{label}</h2>
            <ul className="records__list" aria-label={label}>
              {versions.map((v) => (
                <VersionItem key={v.effectiveDay ?? 'default'} version={v} />
              ))}
            </ul>
          </section>
        );
      })}
    </main>
  );
}

function VersionItem({ version }: { version: RateVersion }) {
  const { t } = useTranslation();
  return (
    <li className="record">
      <div className="record__row">
        <span className="record__amount">
          <ListValue items={paramValueItems(version.name, version.value)} />
        </span>
        <Tag color={STATUS_COLOR[version.status]} fill="outline">
          {t(`rates.status.${version.status}`)}
        </Tag>
      </div>
      <div className="record__row">
        <span className="record__time">
          {version.effectiveDay ? t('rates.from', { day: formatDay(version.effectiveDay) }) : t('rates.default')}
        </span>
        {version.scheduledAt && (
          <time className="record__time" dateTime={version.scheduledAt}>
            {t('rates.announced', { day: formatDay(version.scheduledAt.slice(0, 10)) })}
          </time>
        )}
      </div>
    </li>
  );
}
