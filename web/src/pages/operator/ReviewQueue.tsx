import Button from 'antd-mobile/es/components/button';
import ErrorBlock from 'antd-mobile/es/components/error-block';
import Input from 'antd-mobile/es/components/input';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ReviewItem as Item, useReviews } from '../../api/operator.ts';
import { useUserInfo } from '../../api/queries.ts';
import { QueryCard } from './QueryCard.tsx';
import { ReviewItem } from './ReviewItem.tsx';

/** A holder's UID as the server takes it: digits only (a bigint id). */
const UID_RE = /^\d{1,18}$/;

/** Each request once, in the order the pages came (a refetch may shift pages while requests leave). */
function distinct(items: Item[]): Item[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    if (seen.has(item.id)) return false;
    seen.add(item.id);
    return true;
  });
}

/**
 * Withdrawals and transfers out waiting for an operator, oldest first as the server lists them,
 * a page at a time ("Load more"), optionally one holder's. The operator's own requests are
 * marked and cannot be reviewed here: another operator must (maker-checker).
 */
export function ReviewQueue() {
  const { t } = useTranslation();
  const inputId = useId();
  const [input, setInput] = useState('');
  const [holder, setHolder] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const query = useReviews(holder);
  const me = useUserInfo().data?.userId;
  const items = distinct(query.data?.pages.flatMap((page) => page.items) ?? []);
  const count = items.length;

  const apply = (event?: FormEvent) => {
    event?.preventDefault();
    const uid = input.trim();
    if (uid === '') {
      setHolder(undefined);
      return;
    }
    if (!UID_RE.test(uid)) {
      setError(t('operator.reviews.badUid'));
      return;
    }
    setHolder(uid);
  };
  const clear = () => {
    setInput('');
    setError(null);
    setHolder(undefined);
  };

  return (
    <QueryCard
      title={t('operator.reviews.title')}
      query={query}
      action={count ? <span className="op-count">{query.hasNextPage ? `${count}+` : count}</span> : null}
    >
      {() => (
        <>
          <form className="op-filter" role="search" aria-label={t('operator.reviews.holder')} onSubmit={apply}>
            <label className="field__label" htmlFor={inputId}>
              {t('operator.reviews.holder')}
            </label>
            <div className="op-filter__row">
              <div className="amount-field op-filter__input">
                <Input
                  id={inputId}
                  className="amount-field__input"
                  inputMode="numeric"
                  autoComplete="off"
                  placeholder={t('operator.reviews.holderPlaceholder')}
                  value={input}
                  onChange={(value) => {
                    setInput(value);
                    setError(null);
                  }}
                  onEnterPress={() => apply()}
                />
              </div>
              <Button type="submit" color="primary" fill="outline">
                {t('operator.reviews.filter')}
              </Button>
            </div>
            {error && (
              <p className="field__error" role="alert">
                {error}
              </p>
            )}
            {holder && (
              <p className="op-filter__status" role="status">
                {t('operator.reviews.showing', { uid: holder })}{' '}
                <button type="button" className="link-button" onClick={clear}>
                  {t('operator.reviews.clear')}
                </button>
              </p>
            )}
          </form>
          {items.length === 0 ? (
            <ErrorBlock status="empty" title={t('operator.reviews.empty')} description="" className="records__empty" />
          ) : (
            <>
              <ul className="records__list" aria-label={t('operator.reviews.list')}>
                {items.map((item) => (
                  <ReviewItem key={item.id} item={item} own={me !== undefined && item.userId === me} />
                ))}
              </ul>
              {query.hasNextPage && (
                <Button
                  className="op-more"
                  block
                  fill="outline"
                  loading={query.isFetchingNextPage}
                  disabled={query.isFetchingNextPage}
                  onClick={() => void query.fetchNextPage({ cancelRefetch: false })}
                >
                  {t('operator.reviews.loadMore')}
                </Button>
              )}
            </>
          )}
        </>
      )}
    </QueryCard>
  );
}
