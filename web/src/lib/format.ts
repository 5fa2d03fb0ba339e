import i18next from 'i18next';
import { EMPTY, formatFigure as truncateFigure, truncateAmount } from '../../../contract/format.ts';
import { DEFAULT_LANGUAGE, LANGUAGES, type LanguageKey } from '../../../contract/languages.ts';

/**
 * How the web app shows amounts, figures, rates, dates and durations in the holder's language.
 * Money stays exact: contract/format.ts truncates the decimal string (spec section 9) and only
 * the separators, the grouping and the signs' places come from Intl, whose number formatting
 * would otherwise go through a float. Whole parts are grouped by Intl as a BigInt, which is exact.
 */

export { EMPTY };

/**
 * Each language's BCP 47 locale. Hindi and Thai keep the digits 0-9 (`-u-nu-latn`): amounts are
 * compared with the exchange's and the chain's, which use them. English is read across Asia,
 * where 05/11 is the 5th of November and in the US the 11th of May: its locale is en-CA, whose
 * numbers are the US ones ("10,000.00") and whose dates are year first (2026-11-05).
 */
const LOCALES: Readonly<Record<LanguageKey, string>> = {
  'zh-cn': 'zh-CN',
  en: 'en-CA',
  ft: 'zh-TW',
  Malaysian: 'ms-MY',
  Indonesia: 'id-ID',
  Vietnamese: 'vi-VN',
  Japan: 'ja-JP',
  Korean: 'ko-KR',
  Thai: 'th-TH-u-nu-latn',
  Hindi: 'hi-IN-u-nu-latn',
};

export const localeOf = (key: LanguageKey): string => LOCALES[key];

/** The locale of the language i18next shows now (its tag is the language's htmlLang). */
function currentLocale(): string {
  const key = LANGUAGES.find((l) => l.htmlLang === i18next.language)?.key ?? DEFAULT_LANGUAGE;
  return LOCALES[key];
}

/** A number's pieces as a locale lays out 1.5 and -1.5 (or 1.5% and -1.5%), to fill with exact digits. */
type Layout = { positive: Intl.NumberFormatPart[]; negative: Intl.NumberFormatPart[] };
type NumberStyle = { plain: Layout; percent: Layout; whole: Intl.NumberFormat };

const layoutOf = (format: Intl.NumberFormat, sample: number): Layout => ({
  positive: format.formatToParts(sample),
  negative: format.formatToParts(-sample),
});

const styles = new Map<string, NumberStyle>();

function styleOf(locale: string): NumberStyle {
  let style = styles.get(locale);
  if (!style) {
    style = {
      plain: layoutOf(new Intl.NumberFormat(locale, { minimumFractionDigits: 1 }), 1.5),
      percent: layoutOf(new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 1 }), 0.015),
      whole: new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }),
    };
    styles.set(locale, style);
  }
  return style;
}

const DECIMAL_RE = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * A plain decimal string ("-1234.5", as contract/format.ts leaves it) in the locale's layout:
 * its grouping, decimal separator, minus sign and, for a percentage, percent sign. Anything
 * else (the "--" of an empty value) is shown as it is.
 */
function localise(text: string, locale: string, kind: 'plain' | 'percent'): string {
  const match = DECIMAL_RE.exec(text);
  if (!match) return text;
  const style = styleOf(locale);
  const layout = style[kind][match[1] ? 'negative' : 'positive'];
  const whole = style.whole.format(BigInt(match[2] as string));
  const fraction = match[3] ?? '';
  return layout
    .map((part) => {
      if (part.type === 'integer') return whole;
      if (part.type === 'fraction') return fraction;
      if (part.type === 'decimal') return fraction ? part.value : '';
      return part.value;
    })
    .join('');
}

/** An amount: truncated (never rounded) to 2 decimals, both shown, grouped per locale. */
export const amountIn = (locale: string, value: string | null | undefined): string =>
  localise(truncateAmount(value), locale, 'plain');

/** Any other figure: up to 8 decimals, truncated, trailing zeros dropped, grouped per locale. */
export const figureIn = (locale: string, value: string | null | undefined): string =>
  localise(truncateFigure(value), locale, 'plain');

/**
 * An amount the holder entered, as a confirmation repeats it: exact to its 8 decimals (what is
 * sent is not truncated) and at least two of them, like every other amount ("10,000.00").
 */
export function enteredIn(locale: string, value: string | null | undefined): string {
  const exact = truncateFigure(value);
  const fraction = exact.split('.')[1] ?? '';
  const padded = fraction.length >= 2 ? exact : `${exact.split('.')[0]}.${fraction.padEnd(2, '0')}`;
  return localise(DECIMAL_RE.test(exact) ? padded : exact, locale, 'plain');
}

/** A value already in percent ("36.5" for an APR) with the locale's percent sign. */
export const percentIn = (locale: string, value: string | null | undefined): string =>
  localise(truncateFigure(value), locale, 'percent');

/**
 * A decimal fraction shifted two places to the right, exactly, on the string: "0.001" → "0.1",
 * "-0.0005" → "-0.05", "12" → "1200". Null for anything that is not a plain decimal.
 */
export function shiftToPercent(value: string): string | null {
  const match = DECIMAL_RE.exec(value.trim());
  if (!match) return null;
  const digits = (match[3] ?? '').padEnd(2, '0');
  const whole = `${match[2]}${digits.slice(0, 2)}`.replace(/^0+(?=\d)/, '');
  return `${match[1]}${whole}.${digits.slice(2) || '0'}`;
}

/** A rate stored as a decimal fraction ("0.001") as a percentage ("0.1%", Indonesian "0,1%"). */
export function rateIn(locale: string, rate: string | null | undefined): string {
  const shifted = rate === null || rate === undefined ? null : shiftToPercent(rate);
  return shifted === null ? EMPTY : percentIn(locale, shifted);
}

/** A whole count (holders, days) grouped per locale. */
export const countIn = (locale: string, count: number | bigint): string => styleOf(locale).whole.format(count);

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** Which parts of a moment a format writes. */
type MomentParts = 'date' | 'dateTime' | 'time';

function dateFormatOf(locale: string, parts: MomentParts, timeZone?: string): Intl.DateTimeFormat {
  const key = `${locale}|${parts}|${timeZone ?? ''}`;
  let format = dateFormats.get(key);
  if (!format) {
    const date = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;
    const time = { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' } as const;
    const options = { ...(parts === 'time' ? {} : date), ...(parts === 'date' ? {} : time), ...(timeZone ? { timeZone } : {}) };
    format = new Intl.DateTimeFormat(locale, options);
    dateFormats.set(key, format);
  }
  return format;
}

/** A local calendar date in the locale's numeric order (English 2024-05-01, Indonesian 01/05/2024). */
const dateIn = (locale: string, date: Date): string => dateFormatOf(locale, 'date').format(date);

/** A moment from an ISO date-time, to the second, in local time; an unreadable one as it came. */
export function dateTimeIn(locale: string, iso: string, parts: Exclude<MomentParts, 'date'> = 'dateTime'): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormatOf(locale, parts).format(date);
}

/**
 * A settlement day ("2024-05-01", a UTC calendar day) as the locale writes a date; anything
 * else as it came. Read in UTC so that no time zone moves it to the day before.
 */
export function dayIn(locale: string, day: string | null | undefined): string {
  if (!day) return EMPTY;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T00:00:00Z`) : null;
  return date && !Number.isNaN(date.getTime()) ? dateFormatOf(locale, 'date', 'UTC').format(date) : day;
}

/**
 * A wait of whole minutes in the locale's words for its unit (Intl's unit style): under 90
 * minutes in minutes, under two days in hours, else in days, each rounded up, so a wait is
 * never shown shorter than it was.
 */
export function durationIn(locale: string, minutes: number): string {
  const [value, unit] = minutes < 90 ? [minutes, 'minute'] : minutes < 48 * 60 ? [Math.ceil(minutes / 60), 'hour'] : [Math.ceil(minutes / 1440), 'day'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}

/** The same, in the language shown now: what components call. */
export const formatAmount = (value: string | null | undefined): string => amountIn(currentLocale(), value);
export const formatFigure = (value: string | null | undefined): string => figureIn(currentLocale(), value);
export const formatEntered = (value: string | null | undefined): string => enteredIn(currentLocale(), value);
export const formatPercent = (value: string | null | undefined): string => percentIn(currentLocale(), value);
export const formatRate = (rate: string | null | undefined): string => rateIn(currentLocale(), rate);
export const formatCount = (count: number | bigint): string => countIn(currentLocale(), count);
export const formatDate = (date: Date): string => dateIn(currentLocale(), date);
export const formatDateTime = (iso: string): string => dateTimeIn(currentLocale(), iso);
/** The time of day alone, where a heading above already gives the date. */
export const formatTime = (iso: string): string => dateTimeIn(currentLocale(), iso, 'time');
export const formatDay = (day: string | null | undefined): string => dayIn(currentLocale(), day);
export const formatDuration = (minutes: number): string => durationIn(currentLocale(), minutes);
