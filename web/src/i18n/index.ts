import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { chooseLanguage, DEFAULT_LANGUAGE, LANGUAGES, type LanguageKey } from '../../../contract/languages.ts';
import { storage } from '../lib/storage.ts';

/** One JSON file per language, each loaded only when chosen (its own chunk). */
const messageLoaders = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*.json');

/** antd-mobile's own texts (pickers, pull to refresh) default to Chinese: set them per language. */
const antdLocales: Record<string, () => Promise<{ default: object }>> = {
  'zh-cn': () => import('antd-mobile/es/locales/zh-CN'),
  ft: () => import('antd-mobile/es/locales/zh-TW'),
  Malaysian: () => import('antd-mobile/es/locales/ms-MY'),
  Indonesia: () => import('antd-mobile/es/locales/id-ID'),
  Vietnamese: () => import('antd-mobile/es/locales/vi-VN'),
  Japan: () => import('antd-mobile/es/locales/ja-JP'),
  Korean: () => import('antd-mobile/es/locales/ko-KR'),
  Thai: () => import('antd-mobile/es/locales/th-TH'),
};
const antdEnglish = () => import('antd-mobile/es/locales/en-US');

/** The language antd-mobile's texts should be in, and their loading once a screen asked for them. */
let antdLocaleKey: LanguageKey | undefined;
let antdLocaleSet: Promise<void> | undefined;

type AntdLocale = { common: Record<string, string>; PullToRefresh: Record<string, string> };
type OwnTexts = { common?: { loading?: string }; pullToRefresh?: Record<string, string> };

/**
 * Pull to refresh speaks the language's own messages (antd-mobile has no Hindi, whose screens
 * would otherwise say it in English), with its "Loading" while it refreshes. Malaysian has no
 * messages of its own and keeps antd-mobile's.
 */
async function withOwnTexts(key: LanguageKey, locale: AntdLocale): Promise<AntdLocale> {
  const language = languageOf(key);
  const loader = language.messages === language.key ? messageLoaders[`./locales/${language.messages}.json`] : undefined;
  if (!loader) return locale;
  const own = (await loader()).default as OwnTexts;
  return {
    ...locale,
    common: { ...locale.common, ...(own.common?.loading ? { loading: own.common.loading } : {}) },
    PullToRefresh: { ...locale.PullToRefresh, ...own.pullToRefresh },
  };
}

function loadAntdLocale(key: LanguageKey): Promise<void> {
  return Promise.all([
    (antdLocales[key] ?? antdEnglish)(),
    import('antd-mobile/es/components/config-provider'),
  ]).then(async ([locale, { setDefaultConfig }]) => {
    const texts = await withOwnTexts(key, locale.default as AntdLocale);
    // A language chosen while this one loaded sets its own texts.
    if (key === antdLocaleKey) setDefaultConfig({ locale: texts as never });
  });
}

/**
 * antd-mobile's texts follow the language. They load only once a screen that shows them asks
 * (`antdLocaleReady`): the home route shows none, so neither its first paint nor the moments
 * after it fetch and run them (two chunks and the library's configuration, five requests).
 */
function setAntdLocale(key: LanguageKey): void {
  antdLocaleKey = key;
  if (antdLocaleSet) antdLocaleSet = loadAntdLocale(key);
}

/** Settles once antd-mobile's texts are those of the language last chosen (loading them on first call). */
export const antdLocaleReady = (): Promise<void> => {
  antdLocaleSet ??= loadAntdLocale(antdLocaleKey ?? DEFAULT_LANGUAGE);
  return antdLocaleSet;
};

/**
 * i18next wants BCP 47 tags (it would rewrite "zh-cn" as "zh-CN"), so it runs on each
 * language's tag and the app's own keys (spec section 1) map to and from it.
 */
const languageOf = (key: LanguageKey) => LANGUAGES.find((l) => l.key === key) ?? LANGUAGES[0];
const keyOfTag = (tag: string | undefined): LanguageKey =>
  LANGUAGES.find((l) => l.htmlLang === tag)?.key ?? DEFAULT_LANGUAGE;

async function loadLanguage(key: LanguageKey): Promise<string> {
  const language = languageOf(key);
  if (!i18next.hasResourceBundle(language.htmlLang, 'translation')) {
    const loader = messageLoaders[`./locales/${language.messages}.json`];
    if (!loader) throw new Error(`no messages for ${key}`);
    const messages = (await loader()).default;
    i18next.addResourceBundle(language.htmlLang, 'translation', messages);
  }
  setAntdLocale(key);
  document.documentElement.lang = language.htmlLang;
  return language.htmlLang;
}

export async function initI18n(): Promise<LanguageKey> {
  const key = chooseLanguage(storage.get('lang'), navigator.languages ?? [navigator.language]);
  await i18next.use(initReactI18next).init({
    lng: languageOf(key).htmlLang,
    fallbackLng: languageOf(DEFAULT_LANGUAGE).htmlLang,
    resources: {},
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await i18next.changeLanguage(await loadLanguage(key));
  return key;
}

export async function changeLanguage(key: LanguageKey): Promise<void> {
  const tag = await loadLanguage(key);
  storage.set('lang', key);
  await i18next.changeLanguage(tag);
}

export const currentLanguage = (): LanguageKey => keyOfTag(i18next.language);

/** The current language key, re-rendering on change. */
export function useLanguage(): LanguageKey {
  const { i18n } = useTranslation();
  return keyOfTag(i18n.language);
}
export { i18next };
