import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import DotLoading from 'antd-mobile/es/components/dot-loading';
import ErrorBlock from 'antd-mobile/es/components/error-block';
import InfiniteScroll from 'antd-mobile/es/components/infinite-scroll';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Loading; `first` (nothing shown yet) keeps the room the empty state will take, so nothing jumps. */
export function Loading({ first = false }: { first?: boolean }) {
  const { t } = useTranslation();
  return (
    <span className={first ? 'records__state records__state--first' : 'records__state'} aria-busy="true">
      <DotLoading /> {t('common.loading')}
    </span>
  );
}

/** Items grouped under headings: each item's group, and the heading of a group (shown before its first item). */
export type Grouping<T> = { groupOf: (item: T) => string; heading: (group: string) => ReactNode };

/** The items, each group's heading before its first item (a list item of its own). */
function withHeadings<T>(items: T[], render: (item: T) => ReactNode, grouping: Grouping<T> | undefined): ReactNode[] {
  if (!grouping) return items.map(render);
  let last: string | undefined;
  return items.flatMap((item) => {
    const group = grouping.groupOf(item);
    const heading = group === last ? [] : [<li key={`group-${group}`} className="records__group">{grouping.heading(group)}</li>];
    last = group;
    return [...heading, render(item)];
  });
}

/**
 * A list loaded page by page as it scrolls (antd-mobile InfiniteScroll): loading, failure
 * with retry, the empty state, then the items (under their groups' headings, when grouped) and
 * "No more" at the end.
 */
export function PagedList<T>({
  query,
  label,
  failed,
  className,
  render,
  grouping,
}: {
  query: UseInfiniteQueryResult<InfiniteData<{ items: T[] }>>;
  label: string;
  failed: string;
  className?: string;
  render: (item: T) => ReactNode;
  grouping?: Grouping<T>;
}) {
  const { t } = useTranslation();
  const { data, isPending, isError, refetch, hasNextPage, fetchNextPage } = query;
  const items = data?.pages.flatMap((page) => page.items) ?? [];

  const loadMore = async () => {
    const result = await fetchNextPage({ cancelRefetch: false });
    if (result.isError) throw result.error;
  };

  if (isPending) return <Loading first />;
  if (isError && !data) {
    return (
      <div className="records__state">
        <p>{failed}</p>
        <Button size="small" onClick={() => void refetch()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  }
  if (items.length === 0) {
    return <ErrorBlock status="empty" title={t('common.empty')} description="" className="records__empty" />;
  }
  return (
    <>
      <ul className={className ?? 'records__list'} aria-label={label}>
        {withHeadings(items, render, grouping)}
      </ul>
      <InfiniteScroll loadMore={loadMore} hasMore={hasNextPage}>
        {(hasMore, loadFailed, retry) =>
          loadFailed ? (
            <span className="records__state">
              {failed}{' '}
              <button type="button" className="link-button" onClick={retry}>
                {t('common.retry')}
              </button>
            </span>
          ) : hasMore ? (
            <Loading />
          ) : (
            <span className="records__state">{t('common.noMore')}</span>
          )
        }
      </InfiniteScroll>
    </>
  );
}
