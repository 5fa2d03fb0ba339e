import ErrorBlock from 'antd-mobile/es/components/error-block';
import { useTranslation } from 'react-i18next';
import { useFundings } from '../../api/operator.ts';
import { useUserInfo } from '../../api/queries.ts';
import { FundingItem } from './FundingItem.tsx';
import { QueryCard } from './QueryCard.tsx';

/**
 * Fundings of the treasury or the pool (maker-checker): those under review first, oldest first,
 * then the latest others, as the server lists them. Another operator than the one who asked
 * approves (the exchange then moves the platform's own money) or rejects with a reason.
 */
export function FundingQueue() {
  const { t } = useTranslation();
  const query = useFundings();
  const me = useUserInfo().data?.userId;
  const waiting = query.data?.items.filter((item) => item.status === 'under_review').length ?? 0;
  return (
    <QueryCard
      title={t('operator.fundings.title')}
      query={query}
      action={waiting ? <span className="op-count">{waiting}</span> : null}
    >
      {({ items }) =>
        items.length === 0 ? (
          <ErrorBlock status="empty" title={t('operator.fundings.empty')} description="" className="records__empty" />
        ) : (
          <ul className="records__list" aria-label={t('operator.fundings.list')}>
            {items.map((item) => (
              <FundingItem key={item.id} item={item} own={me !== undefined && item.requestedBy === me} />
            ))}
          </ul>
        )
      }
    </QueryCard>
  );
}
