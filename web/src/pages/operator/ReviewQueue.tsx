import { ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useReviews } from '../../api/operator.ts';
import { QueryCard } from './QueryCard.tsx';
import { ReviewItem } from './ReviewItem.tsx';

/** Withdrawals and transfers out waiting for an operator, oldest first as the server lists them. */
export function ReviewQueue() {
  const { t } = useTranslation();
  const query = useReviews();
  const count = query.data?.items.length;
  return (
    <QueryCard
      title={t('operator.reviews.title')}
      query={query}
      action={count ? <span className="op-count">{count}</span> : null}
    >
      {({ items }) =>
        items.length === 0 ? (
          <ErrorBlock status="empty" title={t('operator.reviews.empty')} description="" className="records__empty" />
        ) : (
          <ul className="records__list" aria-label={t('operator.reviews.list')}>
            {items.map((item) => (
              <ReviewItem key={item.id} item={item} />
            ))}
          </ul>
        )
      }
    </QueryCard>
  );
}
