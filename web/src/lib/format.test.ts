import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatFigure as contractFigure, truncateAmount } from '../../../contract/format.ts';
import { amountIn, countIn, dateTimeIn, dayIn, durationIn, enteredIn, figureIn, localeOf, percentIn, rateIn, shiftToPercent } from './format.ts';

const en = localeOf('en');
const id = localeOf('Indonesia');
const hi = localeOf('Hindi');
const vi = localeOf('Vietnamese');

describe('amounts per locale (truncated, never rounded, to 2 decimals)', () => {
  it.each([
    [en, '123456789012.98765432', '123,456,789,012.98'],
    [id, '123456789012.98765432', '123.456.789.012,98'],
    [vi, '123456789012.98765432', '123.456.789.012,98'],
    // Intl's grouping for India: lakhs and crores.
    [hi, '123456789012.98765432', '1,23,45,67,89,012.98'],
    [hi, '123456', '1,23,456.00'],
    [en, '10000', '10,000.00'],
    [id, '10000', '10.000,00'],
    [en, '-1234.567', '-1,234.56'],
    [id, '-1234.567', '-1.234,56'],
    [en, '-0.001', '0.00'],
    [id, '0', '0,00'],
    [en, '99999999999999999999.999', '99,999,999,999,999,999,999.99'],
  ])('%s: %s shows as %s', (locale, value, shown) => {
    expect(amountIn(locale, value)).toBe(shown);
  });

  it.each([[null], [undefined], [''], ['abc'], ['1e5']])('%s shows as -- in every locale', (value) => {
    expect(amountIn(en, value)).toBe('--');
    expect(amountIn(id, value)).toBe('--');
  });
});

describe('an entered amount repeated in a confirmation: exact, at least 2 decimals', () => {
  it.each([
    [en, '10000', '10,000.00'],
    [id, '10000', '10.000,00'],
    [en, '1.5', '1.50'],
    [id, '1234.12345678', '1.234,12345678'],
    [en, '', '--'],
  ])('%s: %s shows as %s', (locale, value, shown) => {
    expect(enteredIn(locale, value)).toBe(shown);
  });
});

describe('figures per locale (up to 8 decimals, trailing zeros dropped)', () => {
  it.each([
    [en, '83333', '83,333'],
    [id, '83333', '83.333'],
    [en, '0.123456789', '0.12345678'],
    [id, '0.85', '0,85'],
    [id, '25.00', '25'],
    [en, '-2.5', '-2.5'],
  ])('%s: %s shows as %s', (locale, value, shown) => {
    expect(figureIn(locale, value)).toBe(shown);
  });
});

describe('rates are decimal fractions, shown as percentages', () => {
  it.each([
    ['0.001', '0.1'],
    ['0.0005', '0.05'],
    ['0.5', '50.0'],
    ['12', '1200.0'],
    ['-0.00125', '-0.125'],
    ['1.', null],
    ['abc', null],
  ])('%s shifts to %s', (rate, shifted) => {
    expect(shiftToPercent(rate)).toBe(shifted);
  });

  it.each([
    [en, '0.001', '0.1%'],
    [id, '0.001', '0,1%'],
    [en, '0.0005', '0.05%'],
    [id, '0.3', '30%'],
    [en, '-0.015', '-1.5%'],
    [en, '12.5', '1,250%'],
    [id, null, '--'],
  ])('%s: %s shows as %s', (locale, rate, shown) => {
    expect(rateIn(locale, rate)).toBe(shown);
  });

  it('places a value already in percent with the locale sign', () => {
    expect(percentIn(en, '36.5')).toBe('36.5%');
    expect(percentIn(id, '36.5')).toBe('36,5%');
    expect(percentIn(hi, '0')).toBe('0%');
  });
});

describe('counts and dates per locale', () => {
  it('groups whole counts', () => {
    expect(countIn(en, 1234567)).toBe('1,234,567');
    expect(countIn(id, 1234567n)).toBe('1.234.567');
    expect(countIn(hi, 1234567)).toBe('12,34,567');
  });

  it('keeps digits 0-9 in Hindi and Thai', () => {
    expect(amountIn(hi, '1234567.89')).toMatch(/^[0-9,.]+$/);
    expect(amountIn(localeOf('Thai'), '1234567.89')).toBe('1,234,567.89');
  });

  it('shows a settlement day on that UTC day in the locale order', () => {
    expect(dayIn(en, '2026-11-05')).toBe('2026-11-05');
    expect(dayIn(id, '2026-11-05')).toBe('05/11/2026');
    expect(dayIn(localeOf('Japan'), '2026-11-05')).toBe('2026/11/05');
    expect(dayIn(en, 'soon')).toBe('soon');
    expect(dayIn(en, null)).toBe('--');
  });

  it('shows a moment to the second on a 24-hour clock, an unreadable one as it came', () => {
    const local = new Date(2024, 0, 5, 17, 8, 9);
    expect(dateTimeIn(en, local.toISOString())).toBe('2024-01-05, 17:08:09');
    expect(dateTimeIn(id, local.toISOString())).toBe('05/01/2024, 17.08.09');
    expect(dateTimeIn(en, 'not a date')).toBe('not a date');
    // The time alone, as under a day's heading.
    expect(dateTimeIn(en, local.toISOString(), 'time')).toBe('17:08:09');
    expect(dateTimeIn(id, local.toISOString(), 'time')).toBe('17.08.09');
  });
});

/** A locale's output back to a plain decimal: group separators out, its decimal separator to ".". */
function normalise(shown: string, locale: string): string {
  const parts = new Intl.NumberFormat(locale).formatToParts(-1234.5);
  const group = parts.find((p) => p.type === 'group')?.value ?? ',';
  const decimal = parts.find((p) => p.type === 'decimal')?.value ?? '.';
  const minus = parts.find((p) => p.type === 'minusSign')?.value ?? '-';
  return shown.split(group).join('').replace(decimal, '.').replace(minus, '-');
}

describe('a wait in the words of the locale', () => {
  it('says minutes under 90, hours under two days, else days, rounding up', () => {
    const en = localeOf('en');
    expect(durationIn(en, 1)).toBe('1 minute');
    expect(durationIn(en, 89)).toBe('89 minutes');
    expect(durationIn(en, 90)).toBe('2 hours');
    expect(durationIn(en, 121)).toBe('3 hours');
    expect(durationIn(en, 48 * 60 - 1)).toBe('48 hours');
    expect(durationIn(en, 48 * 60)).toBe('2 days');
    expect(durationIn(en, 3 * 1440 + 1)).toBe('4 days');
  });

  it('writes the unit in each language, with digits 0-9', () => {
    expect(durationIn(localeOf('zh-cn'), 26)).toBe('26分钟');
    expect(durationIn(localeOf('Indonesia'), 26)).toBe('26 menit');
    expect(durationIn(localeOf('Hindi'), 180)).toMatch(/^3 /);
  });
});

describe('property: localising never changes the value', () => {
  const decimal = fc
    .tuple(fc.boolean(), fc.stringMatching(/^\d{1,24}$/), fc.option(fc.stringMatching(/^\d{1,12}$/)))
    .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction === null ? '' : `.${fraction}`}`);

  it.each([[en], [id], [hi], [vi], [localeOf('Korean')], [localeOf('zh-cn')]])('%s', (locale) => {
    fc.assert(
      fc.property(decimal, (value) => {
        expect(normalise(amountIn(locale, value), locale)).toBe(truncateAmount(value));
        expect(normalise(figureIn(locale, value), locale)).toBe(contractFigure(value));
      }),
    );
  });
});
