import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { noFilter, type RangeFilter } from '../lib/rangeFilter.ts';
import { ChoiceGroup } from './ChoiceGroup.tsx';
import { DateField } from './DateField.tsx';
import { Sheet } from './Sheet.tsx';
import { serverNow } from '../lib/serverClock.ts';

/**
 * The filter popup of the spec: a type choice, a time range with select date, reset and
 * confirm. It edits a draft; Confirm applies it, Reset clears the draft. Mounted per opening.
 */
export function FilterSheet<T extends string>({
  choiceLabel,
  options,
  initial,
  onApply,
  onClosed,
}: {
  choiceLabel: string;
  options: { value: T; label: string }[];
  initial: RangeFilter<T>;
  onApply: (value: RangeFilter<T>) => void;
  onClosed: () => void;
}) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(true);
  const [draft, setDraft] = useState<RangeFilter<T>>(initial);
  // The server's today: the records' days are its days.
  const today = new Date(serverNow());
  const choices: { value: T | 'all'; label: string }[] = [{ value: 'all', label: t('wallet.all') }, ...options];

  const confirm = () => {
    onApply(draft);
    setVisible(false);
  };

  return (
    <Sheet
      visible={visible}
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
        <p className="field__label">{choiceLabel}</p>
        <ChoiceGroup
          label={choiceLabel}
          options={choices}
          value={draft.choice}
          onChange={(choice) => setDraft({ ...draft, choice })}
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
          <Button block size="large" fill="outline" onClick={() => setDraft(noFilter<T>())}>
            {t('common.reset')}
          </Button>
          <Button block size="large" color="primary" onClick={confirm}>
            {t('common.confirm')}
          </Button>
        </div>
      </section>
    </Sheet>
  );
}
