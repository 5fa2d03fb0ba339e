import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTransferRecords } from '../../api/wallet.ts';
import { TRANSFER_TYPES, type TransferType } from '../../../../contract/wallet.ts';
import { FilterSheet } from '../../components/FilterSheet.tsx';
import { PagedList } from '../../components/PagedList.tsx';
import { isFiltered, noFilter, type RangeFilter, rangeQuery } from '../../lib/rangeFilter.ts';
import { typeLabelKey } from './moves.ts';
import { RecordItem } from './RecordItem.tsx';

/** Transfer records, newest first, loaded page by page as the list scrolls, with a filter. */
export function TransferRecords() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<RangeFilter<TransferType>>(noFilter);
  const [filterOpening, setFilterOpening] = useState(0); // 0: closed; each opening mounts afresh
  const records = useTransferRecords(rangeQuery(filter, 'type'));
  const filtered = isFiltered(filter);

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
      <PagedList
        query={records}
        label={t('wallet.records')}
        failed={t('wallet.recordsFailed')}
        render={(record) => <RecordItem key={record.id} record={record} />}
      />
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
