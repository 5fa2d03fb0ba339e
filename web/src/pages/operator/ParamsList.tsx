import { useTranslation } from 'react-i18next';
import { FIRST_VERSION_DAY } from '../../../../contract/rates.ts';
import { useParamVersions } from '../../api/operator.ts';
import { formatParamValue, paramLabelKey, paramStates, paramValueItems } from './params.ts';
import { QueryCard } from './QueryCard.tsx';
import { ListValue } from '../../components/ListValue.tsx';

/** Every parameter: the value in force today (or the configuration default) and what is scheduled. */
export function ParamsList({ today }: { today: string }) {
  const { t } = useTranslation();
  const query = useParamVersions();
  return (
    <QueryCard title={t('operator.params.title')} query={query}>
      {({ items, defaults }) => (
        <ul className="op-params" aria-label={t('operator.params.title')}>
          {paramStates(items, today, defaults).map(({ name, current, inForce, scheduled }) => {
            const labelKey = paramLabelKey(name);
            return (
              <li key={name} className="op-param" aria-label={labelKey ? t(labelKey) : name}>
                <div className="op-param__head">
                  <span className="op-param__label">{labelKey ? t(labelKey) : name}</span>
                  {inForce !== null ? (
                    <span className="op-param__value" data-testid="param-in-force">
                      <ListValue items={paramValueItems(name, inForce)} />
                    </span>
                  ) : (
                    <span className="op-param__default">{t('operator.params.default')}</span>
                  )}
                </div>
                <div className="op-param__meta">
                  <code className="op-param__name">{name}</code>
                  <span data-testid="param-since">
                    {!current
                      ? t('operator.params.default')
                      : current.effectiveDay === FIRST_VERSION_DAY
                        ? t('operator.params.firstVersion')
                        : t('operator.params.since', { day: current.effectiveDay })}
                  </span>
                </div>
                {scheduled.map((version) => (
                  <p key={version.effectiveDay} className="op-param__scheduled">
                    {t('operator.params.scheduled', { value: formatParamValue(name, version.value), day: version.effectiveDay })}
                  </p>
                ))}
              </li>
            );
          })}
        </ul>
      )}
    </QueryCard>
  );
}
