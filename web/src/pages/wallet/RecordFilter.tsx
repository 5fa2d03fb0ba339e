import { Button, Popup } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TRANSFER_TYPES, type TransferType } from '../../../../contract/wallet.ts';
import { ChoiceGroup } from '../../components/ChoiceGroup.tsx';
import { DateField } from '../../components/DateField.tsx';
import { type FilterValue, NO_FILTER } from './filter.ts';
import { typeLabelKey } from './moves.ts';

/**
 * The records filter (spec: order type, time range with select date, reset, confirm). It edits
 * a draft; Confirm applies it, Reset clears the draft. Mounted per opening.
 */
export function RecordFilter({
  initial,
  onApply,
  onClosed,
}: {
  initial: FilterValue;
  onApply: (value: FilterValue) => void;
  onClosed: () => void;
}) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(true);
  const [draft, setDraft] = useState<FilterValue>(initial);
  const today = new Date();
  const typeOptions: { value: TransferType | 'all'; label: string }[] = [
    { value: 'all', label: t('wallet.all') },
    ...TRANSFER_TYPES.map((type) => ({ value: type, label: t(typeLabelKey(type)) })),
  ];

  const confirm = () => {
    onApply(draft);
    setVisible(false);
  };

  return (
    <Popup
      visible={visible}
      onMaskClick={() => setVisible(false)}
      onClose={() => setVisible(false)}
      afterClose={onClosed}
      position="bottom"
      bodyClassName="sheet"
      destroyOnClose
    >
      <section className="sheet__content" role="dialog" aria-modal="true" aria-label={t('wallet.filter')}>
        <header className="sheet__header">
          <h2 className="sheet__title">{t('wallet.filter')}</h2>
        </header>
        <p className="field__label">{t('wallet.orderType')}</p>
        <ChoiceGroup
          label={t('wallet.orderType')}
          options={typeOptions}
          value={draft.type}
          onChange={(type) => setDraft({ ...draft, type })}
        />
        <p className="field__label">{t('wallet.timeRange')}</p>
        <div className="date-range">
          <DateField
            label={t('wallet.startDate')}
            value={draft.start}
            max={draft.end ?? today}
            onChange={(start) => setDraft({ ...draft, start })}
          />
          <span className="date-range__dash" aria-hidden="true">
            –
          </span>
          <DateField
            label={t('wallet.endDate')}
            value={draft.end}
            min={draft.start ?? undefined}
            max={today}
            onChange={(end) => setDraft({ ...draft, end })}
          />
        </div>
        <div className="sheet__buttons">
          <Button block size="large" fill="outline" onClick={() => setDraft(NO_FILTER)}>
            {t('common.reset')}
          </Button>
          <Button block size="large" color="primary" onClick={confirm}>
            {t('common.confirm')}
          </Button>
        </div>
      </section>
    </Popup>
  );
}
