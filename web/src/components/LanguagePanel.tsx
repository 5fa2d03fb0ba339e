import { useTranslation } from 'react-i18next';
import { LANGUAGES, type LanguageKey } from '../../../contract/languages.ts';
import { changeLanguage, useLanguage } from '../i18n/index.ts';
import { Sheet } from './Sheet.tsx';

/** The language button's panel (spec section 2): right side, 34% wide, current one marked. */
export function LanguagePanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const currentKey = useLanguage();
  const choose = async (key: LanguageKey) => {
    await changeLanguage(key);
    onClose();
  };
  return (
    <Sheet
      visible={open}
      onClose={onClose}
      position="right"
      bodyClassName="lang-panel"
      bodyStyle={{ width: '34vw' }}
    >
      <nav aria-label={t('home.language')}>
        <ul className="lang-list">
          {LANGUAGES.map((language) => {
            const current = language.key === currentKey;
            return (
              <li key={language.key}>
                <button
                  type="button"
                  className={current ? 'lang-item lang-item--current' : 'lang-item'}
                  aria-current={current ? 'true' : undefined}
                  lang={language.htmlLang}
                  onClick={() => void choose(language.key)}
                >
                  {language.name}
                </button>
              </li>
            );
          })}
        </ul>
      </nav>
    </Sheet>
  );
}
