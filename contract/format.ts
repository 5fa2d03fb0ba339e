/**
 * How figures are shown (spec section 9): amounts truncated (never rounded) to 2 decimals,
 * other figures up to 8 decimals, and an empty value as "--". Works on decimal strings so
 * that no float is involved.
 */
export const EMPTY = '--';

const NUMBER_RE = /^(-?)(\d+)(?:\.(\d+))?$/;

const group = (whole: string) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

function truncateDecimal(value: string | null | undefined, places: number, pad: boolean, grouped = false): string {
  if (value === null || value === undefined) return EMPTY;
  const text = String(value).trim();
  if (text === '') return EMPTY;
  const match = NUMBER_RE.exec(text);
  if (!match) return EMPTY;
  const sign = match[1] as string;
  const whole = (match[2] as string).replace(/^0+(?=\d)/, '');
  let fraction = (match[3] ?? '').slice(0, places);
  if (pad) fraction = fraction.padEnd(places, '0');
  else fraction = fraction.replace(/0+$/, '');
  const isZero = /^0*$/.test(whole + fraction);
  return `${isZero ? '' : sign}${grouped ? group(whole) : whole}${fraction ? `.${fraction}` : ''}`;
}

/** An amount truncated to 2 decimals, always two places, ungrouped ("-1234.50"); "--" when empty. */
export const truncateAmount = (value: string | null | undefined): string => truncateDecimal(value, 2, true);

/** An amount for display: truncated to 2 decimals, always two places, thousands grouped. */
export const formatAmount = (value: string | null | undefined): string =>
  truncateDecimal(value, 2, true, true);

/** The sign of a decimal string: 1, -1, or 0 (also for empty or malformed values). */
export function signOf(value: string | null | undefined): -1 | 0 | 1 {
  const match = NUMBER_RE.exec(String(value ?? '').trim());
  if (!match || /^[0.]*$/.test(`${match[2]}${match[3] ?? ''}`)) return 0;
  return match[1] === '-' ? -1 : 1;
}

/** Any other figure: up to 8 decimals, truncated, trailing zeros dropped. */
export const formatFigure = (value: string | null | undefined): string =>
  truncateDecimal(value, 8, false);
