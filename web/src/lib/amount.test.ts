import { describe, expect, it } from 'vitest';
import { checkAmount, checkEntered, checkOnFreshBalance, maxAmount, refusalOf, refusalStands } from './amount.ts';

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

  it('checks an amount with no balance behind it (the operator funding form) by its form alone', () => {
    expect(checkEntered('')).toEqual({ ok: false, message: 'err.amountRequired' });
    expect(checkEntered('0')).toEqual({ ok: false, message: 'err.amountInvalid' });
    expect(checkEntered('-1')).toEqual({ ok: false, message: 'err.amountInvalid' });
    expect(checkEntered('1.123456789')).toEqual({ ok: false, message: 'err.amountDecimals' });
    expect(checkEntered('1000000.5')).toEqual({ ok: true, value: 100_000_050_000_000n, amount: '1000000.5' });
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

/** A check of `input` against a balance, and a re-read that answers `fresh` (counting its calls). */
function setup(input: string, fresh: string | Error) {
  const reads: string[] = [];
  const reread = async () => {
    reads.push('read');
    if (fresh instanceof Error) throw fresh;
    return fresh;
  };
  return { reads, run: (cached: string) => checkOnFreshBalance((balance: string) => checkAmount(input, balance, '1'), cached, reread) };
}

describe('refusing for the balance only on a re-read one', () => {
  it('accepts on the figures on screen without asking again', async () => {
    const { reads, run } = setup('100', '0');
    expect(await run('500')).toEqual({ check: { ok: true, value: 10_000_000_000n, amount: '100' }, figures: '500' });
    expect(reads).toEqual([]);
  });

  it("refuses the input's own faults without asking again", async () => {
    const { reads, run } = setup('0.5', '0');
    expect((await run('0'))?.check).toEqual({ ok: false, message: 'wallet.belowMinimum', values: { amount: '1' } });
    expect(reads).toEqual([]);
  });

  it('re-reads a balance that looks too small, and accepts when the fresh one covers the amount', async () => {
    const { reads, run } = setup('100', '600');
    const answer = await run('0');
    expect(answer?.check.ok).toBe(true);
    expect(answer?.figures).toBe('600');
    expect(reads).toEqual(['read']);
  });

  it('refuses when the fresh balance is still too small, on that balance', async () => {
    const { run } = setup('100', '99.99999999');
    expect(await run('0')).toEqual({ check: { ok: false, message: 'err.insufficientBalance' }, figures: '99.99999999' });
  });

  it('gives no verdict when the re-read fails, rather than refusing on the old figure', async () => {
    const { run } = setup('100', new Error('offline'));
    expect(await run('0')).toBeNull();
  });
});

describe('a refusal under the field', () => {
  it('goes when the figure it was about changes', () => {
    const refusal = refusalOf({ message: 'err.insufficientBalance' }, { balance: '0', minimum: '1' });
    expect(refusal).toEqual({ message: 'err.insufficientBalance', figure: '0' });
    expect(refusalStands(refusal, { balance: '0', minimum: '1' })).toBe(true);
    expect(refusalStands(refusal, { balance: '0', minimum: '2' })).toBe(true);
    expect(refusalStands(refusal, { balance: '500', minimum: '1' })).toBe(false);
  });

  it('about the quota or the minimum, goes when that one changes', () => {
    const quota = refusalOf({ message: 'err.dailyQuota' }, { balance: '5000', quota: '10' });
    expect(refusalStands(quota, { balance: '6000', quota: '10' })).toBe(true);
    expect(refusalStands(quota, { balance: '5000', quota: '10000' })).toBe(false);
    const minimum = refusalOf({ message: 'earn.belowMinimum', values: { amount: '1' } }, { minimum: '1' });
    expect(minimum).toEqual({ message: 'earn.belowMinimum', values: { amount: '1' }, figure: '1' });
    expect(refusalStands(minimum, { minimum: '0.5' })).toBe(false);
  });

  it("about the input's own form, stands whatever the figures do", () => {
    const format = refusalOf({ message: 'err.amountDecimals' }, { balance: '0' });
    expect(format.figure).toBeNull();
    expect(refusalStands(format, { balance: '500' })).toBe(true);
  });
});
