import { describe, expect, it } from 'vitest';
import { EMPTY, formatAmount, formatFigure, signOf } from './format.ts';

describe('formatAmount (spec 9: truncated, not rounded, to 2 decimals)', () => {
  it.each([
    ['1.999', '1.99'],
    ['0.005', '0.00'],
    ['12', '12.00'],
    ['12.5', '12.50'],
    ['1235294.11764705', '1,235,294.11'],
    ['999.999', '999.99'],
    ['1000', '1,000.00'],
    ['-3.789', '-3.78'],
    ['-0.001', '0.00'],
    ['007.1', '7.10'],
  ])('%s shows as %s', (input, shown) => {
    expect(formatAmount(input)).toBe(shown);
  });

  it.each([[null], [undefined], [''], ['abc'], ['1e5']])('%s shows as --', (input) => {
    expect(formatAmount(input)).toBe(EMPTY);
  });
});

describe('formatFigure (up to 8 decimals)', () => {
  it.each([
    ['0.85', '0.85'],
    ['1.123456789', '1.12345678'],
    ['25.00', '25'],
    ['3', '3'],
    ['-0.000000009', '0'],
  ])('%s shows as %s', (input, shown) => {
    expect(formatFigure(input)).toBe(shown);
  });

  it('shows empty as --', () => {
    expect(formatFigure(null)).toBe('--');
  });
});

describe('signOf', () => {
  it.each([
    ['25.00', 1],
    ['-0.5', -1],
    ['0.00', 0],
    ['-0', 0],
    [null, 0],
    ['x', 0],
  ] as const)('%s has sign %s', (value, sign) => {
    expect(signOf(value)).toBe(sign);
  });
});
