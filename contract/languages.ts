/** The ten interface languages (spec section 1). Malaysian uses the English strings. */
export const LANGUAGES = [
  { key: 'zh-cn', name: '简体中文', messages: 'zh-cn', htmlLang: 'zh-CN' },
  { key: 'en', name: 'English', messages: 'en', htmlLang: 'en' },
  { key: 'ft', name: '繁體中文', messages: 'ft', htmlLang: 'zh-TW' },
  { key: 'Malaysian', name: 'Bahasa Melayu', messages: 'en', htmlLang: 'ms' },
  { key: 'Indonesia', name: 'Bahasa Indonesia', messages: 'Indonesia', htmlLang: 'id' },
  { key: 'Vietnamese', name: 'Tiếng Việt', messages: 'Vietnamese', htmlLang: 'vi' },
  { key: 'Japan', name: '日本語', messages: 'Japan', htmlLang: 'ja' },
  { key: 'Korean', name: '한국어', messages: 'Korean', htmlLang: 'ko' },
  { key: 'Thai', name: 'ไทย', messages: 'Thai', htmlLang: 'th' },
  { key: 'Hindi', name: 'हिन्दी', messages: 'Hindi', htmlLang: 'hi' },
] as const;

export type LanguageKey = (typeof LANGUAGES)[number]['key'];
/** The cookie the web app keeps the chosen language in (its storage helper's 'lang'). */
export const LANGUAGE_COOKIE = 'aic_earn_lang';
export const DEFAULT_LANGUAGE: LanguageKey = 'zh-cn';
/** The distinct message files; Malaysian has none of its own. */
export const MESSAGE_FILES = [...new Set(LANGUAGES.map((l) => l.messages))];

export const isLanguageKey = (value: unknown): value is LanguageKey =>
  typeof value === 'string' && LANGUAGES.some((l) => l.key === value);

/** Browser language tags (navigator.language) to our keys. */
const BROWSER_TAGS: Record<string, LanguageKey> = {
  'zh-cn': 'zh-cn', 'zh-sg': 'zh-cn', zh: 'zh-cn', 'zh-hans': 'zh-cn',
  'zh-tw': 'ft', 'zh-hk': 'ft', 'zh-mo': 'ft', 'zh-hant': 'ft',
  en: 'en', ms: 'Malaysian', id: 'Indonesia', in: 'Indonesia', vi: 'Vietnamese',
  ja: 'Japan', ko: 'Korean', th: 'Thai', hi: 'Hindi',
};

function languageFromBrowserTag(tag: string | undefined | null): LanguageKey | undefined {
  if (!tag) return undefined;
  const lower = tag.toLowerCase();
  if (isLanguageKey(tag)) return tag;
  return BROWSER_TAGS[lower] ?? BROWSER_TAGS[lower.split('-')[0] as string];
}

/** Spec section 4: the stored lang, else the browser language if supported, else zh-cn. */
export function chooseLanguage(stored: string | null | undefined, browserTags: readonly string[]): LanguageKey {
  if (isLanguageKey(stored)) return stored;
  for (const tag of browserTags) {
    const key = languageFromBrowserTag(tag);
    if (key) return key;
  }
  return DEFAULT_LANGUAGE;
}
