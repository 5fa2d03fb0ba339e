import { describe, expect, it } from 'vitest';
import { checkAmount, maxAmount } from './amount.ts';

const message = (input: string, balance = '500', minimum?: string) => {
  const result = checkAmount(input, balance, minimum);
  return result.ok ? result.amount : result.message;
};

describe('wallet amount rules', () => {
  it('asks for a quantity when nothing is entered', () => {
    expect(message('')).toBe('err.amountRequired');
    expect(message('   ')).toBe('err.amountRequired');
  });

  it('refuses anything but a plain decimal above zero', () => {
    for (const input of ['abc', '1e3', '-5', '0', '0.00', '.5', '1,000', 'NaN', '12 3']) {
      expect(message(input), input).toBe('err.amountInvalid');
    }
  });

  it('refuses more than 8 decimals', () => {
    expect(message('1.123456789')).toBe('err.amountDecimals');
    expect(message('1.12345678')).toBe('1.12345678');
  });

  it('compares with the balance exactly, in units', () => {
    expect(message('500')).toBe('500');
    expect(message('500.00000001')).toBe('err.insufficientBalance');
    expect(message('0.3', '0.3')).toBe('0.3');
    expect(checkAmount('1', undefined)).toEqual({ ok: false, message: 'err.insufficientBalance' });
  });

  it('applies a minimum when there is one', () => {
    expect(checkAmount('0.5', '500', '1')).toEqual({ ok: false, message: 'wallet.belowMinimum', values: { amount: '1' } });
    expect(message('1', '500', '1')).toBe('1');
  });

  it('refuses a withdrawal below its minimum with the server’s message, exactly at 1e-8', () => {
    expect(checkAmount('0.99999999', '500', '1', 'err.belowTransferMinimum')).toEqual({
      ok: false,
      message: 'err.belowTransferMinimum',
      values: { amount: '1' },
    });
    expect(checkAmount('1', '500', '1', 'err.belowTransferMinimum')).toMatchObject({ ok: true, amount: '1' });
    expect(checkAmount('2.5', '500', '2.50000001', 'err.belowTransferMinimum')).toMatchObject({ ok: false });
  });

  it('sends the canonical decimal and fills Max with the whole balance', () => {
    expect(message('012.50')).toBe('12.5');
    expect(maxAmount('19500.00000000')).toBe('19500');
    expect(maxAmount(undefined)).toBe('0');
  });
});
