import { Button, DotLoading, ErrorBlock, InfiniteScroll } from 'antd-mobile';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTransferRecords } from '../../api/wallet.ts';
import { TRANSFER_TYPES, type TransferType } from '../../../../contract/wallet.ts';
import { FilterSheet } from '../../components/FilterSheet.tsx';
import { isFiltered, noFilter, type RangeFilter, rangeQuery } from '../../lib/rangeFilter.ts';
import { typeLabelKey } from './moves.ts';
import { RecordItem } from './RecordItem.tsx';

function Loading() {
  const { t } = useTranslation();
  return (
    <span className="records__state" aria-busy="true">
      <DotLoading /> {t('common.loading')}
    </span>
  );
}

/** Transfer records, newest first, loaded page by page as the list scrolls, with a filter. */
export function TransferRecords() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<RangeFilter<TransferType>>(noFilter);
  const [filterOpening, setFilterOpening] = useState(0); // 0: closed; each opening mounts afresh
  const { data, isPending, isError, refetch, hasNextPage, fetchNextPage } = useTransferRecords(rangeQuery(filter, 'type'));
  const items = data?.pages.flatMap((page) => page.items) ?? [];
  const filtered = isFiltered(filter);

  const loadMore = async () => {
    const result = await fetchNextPage({ cancelRefetch: false });
    if (result.isError) throw result.error;
  };

  let body: ReactNode;
  if (isPending) {
    body = <Loading />;
  } else if (isError && !data) {
    body = (
      <div className="records__state">
        <p>{t('wallet.recordsFailed')}</p>
        <Button size="small" onClick={() => void refetch()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  } else if (items.length === 0) {
    body = <ErrorBlock status="empty" title={t('common.empty')} description="" className="records__empty" />;
  } else {
    body = (
      <>
        <ul className="records__list" aria-label={t('wallet.records')}>
          {items.map((record) => (
            <RecordItem key={record.id} record={record} />
          ))}
        </ul>
        <InfiniteScroll loadMore={loadMore} hasMore={hasNextPage}>
          {(hasMore, failed, retry) =>
            failed ? (
              <span className="records__state">
                {t('wallet.recordsFailed')}{' '}
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

  return (
    <section className="card records" aria-label={t('wallet.records')}>
      <header className="records__header">
        <h2 className="card__title">{t('wallet.records')}</h2>
        <button
          type="button"
          className={filtered ? 'filter-button filter-button--active' : 'filter-button'}
          onClick={() => setFilterOpening((n) => n + 1)}
        >
          {t('wallet.filter')}
        </button>
      </header>
      {body}
      {filterOpening > 0 && (
        <FilterSheet
          key={filterOpening}
          choiceLabel={t('wallet.orderType')}
          options={TRANSFER_TYPES.map((type) => ({ value: type, label: t(typeLabelKey(type)) }))}
          initial={filter}
          onApply={setFilter}
          onClosed={() => setFilterOpening(0)}
        />
      )}
    </section>
  );
}
