import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatUnits, MAX_UNITS, mulRate, parseAmount, UNIT } from './money.ts';

describe('parseAmount', () => {
  it.each([
    ['1', 100_000_000n],
    ['12.5', 1_250_000_000n],
    ['0.00000001', 1n],
    ['00012.34000000', 1_234_000_000n],
    ['1.', 100_000_000n],
  ])('reads %s exactly', (text, expected) => {
    expect(parseAmount(text)).toEqual({ ok: true, value: expected });
  });

  it.each([
    [undefined, 'empty'],
    ['', 'empty'],
    ['  ', 'empty'],
    ['-1', 'negative'],
    ['1e5', 'format'],
    ['NaN', 'format'],
    ['Infinity', 'format'],
    ['0x10', 'format'],
    ['1,5', 'format'],
    ['.5', 'format'],
    ['1.000000001', 'decimals'],
    [12, 'format'],
    ['10000000000000', 'too_large'],
    ['9'.repeat(60), 'too_large'],
  ])('refuses %s as %s', (text, reason) => {
    expect(parseAmount(text)).toEqual({ ok: false, reason });
  });

  it('round-trips every amount through its wire string', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_UNITS }), (value) => {
        expect(parseAmount(formatUnits(value))).toEqual({ ok: true, value });
      }),
    );
  });

  it('never throws and never accepts what is not a plain decimal', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const result = parseAmount(text);
        if (result.ok) expect(text.trim()).toMatch(/^\d+(\.\d{0,8})?$/);
      }),
    );
  });
});

describe('formatUnits', () => {
  it('writes canonical strings', () => {
    expect(formatUnits(0n)).toBe('0');
    expect(formatUnits(1n)).toBe('0.00000001');
    expect(formatUnits(150n * UNIT)).toBe('150');
    expect(formatUnits(-1_250_000_000n)).toBe('-12.5');
  });
});

describe('mulRate', () => {
  it('truncates toward zero at 1e-8', () => {
    expect(mulRate(1n, '0.5')).toBe(0n);
    expect(mulRate(1000n * UNIT, '0.001')).toBe(1n * UNIT);
    expect(mulRate(333_333_333n, '0.003')).toBe(999_999n);
  });
});
