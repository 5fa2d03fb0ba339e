import { type KeyboardEvent, useRef } from 'react';
import { useTranslation } from 'react-i18next';

export const TABS = ['reviews', 'ledger', 'fund', 'params', 'settle', 'audit'] as const;
export type TabKey = (typeof TABS)[number];

export const tabId = (base: string, key: TabKey) => `${base}-tab-${key}`;
export const panelId = (base: string, key: TabKey) => `${base}-panel-${key}`;

/**
 * The console's duties as tabs in a 3 × 2 grid, so all six show at once on a phone. Arrow keys,
 * Home and End move between them (WAI-ARIA tabs pattern).
 */
export function ConsoleTabs({ base, value, onChange }: { base: string; value: TabKey; onChange: (key: TabKey) => void }) {
  const { t } = useTranslation();
  const buttons = useRef(new Map<TabKey, HTMLButtonElement>());

  const move = (event: KeyboardEvent, index: number) => {
    const last = TABS.length - 1;
    const next = { ArrowRight: index + 1, ArrowDown: index + 1, ArrowLeft: index - 1, ArrowUp: index - 1, Home: 0, End: last }[
      event.key
    ];
    if (next === undefined) return;
    event.preventDefault();
    const key = TABS[(next + TABS.length) % TABS.length] as TabKey;
    onChange(key);
    buttons.current.get(key)?.focus();
  };

  return (
    <div className="op-tablist" role="tablist" aria-label={t('title.operator')}>
      {TABS.map((key, index) => {
        const selected = key === value;
        return (
          <button
            key={key}
            ref={(element) => {
              if (element) buttons.current.set(key, element);
              else buttons.current.delete(key);
            }}
            type="button"
            role="tab"
            id={tabId(base, key)}
            aria-selected={selected}
            aria-controls={panelId(base, key)}
            tabIndex={selected ? 0 : -1}
            className={selected ? 'op-tab op-tab--selected' : 'op-tab'}
            onClick={() => onChange(key)}
            onKeyDown={(event) => move(event, index)}
          >
            {t(`operator.tabs.${key}`)}
          </button>
        );
      })}
    </div>
  );
}
