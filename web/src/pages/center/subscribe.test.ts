import { describe, expect, it } from 'vitest';
import { checkSubscription, maxSubscription, subscriptionFigures } from './subscribe.ts';

const limits = { minimum: '1', quotaLeft: '10000', available: '5000' };
const message = (input: string, over: Partial<typeof limits> = {}) => {
  const result = checkSubscription(input, { ...limits, ...over });
  return result.ok ? result.amount : result.message;
};

describe('subscription rules', () => {
  it('asks for a quantity and refuses malformed ones', () => {
    expect(message('')).toBe('err.amountRequired');
    expect(message('1e3')).toBe('err.amountInvalid');
    expect(message('0')).toBe('err.amountInvalid');
    expect(message('1.123456789')).toBe('err.amountDecimals');
  });

  it('refuses less than the minimum, with its amount', () => {
    expect(checkSubscription('0.99999999', limits)).toEqual({
      ok: false,
      message: 'earn.belowMinimum',
      values: { amount: '1' },
    });
    expect(message('1')).toBe('1');
  });

  it('refuses more than the wallet holds, then more than the quota left', () => {
    expect(message('5000.00000001')).toBe('err.insufficientBalance');
    expect(message('5000')).toBe('5000');
    expect(message('600', { quotaLeft: '500' })).toBe('err.dailyQuota');
  });

  it('fills Max with the balance capped by the quota left', () => {
    expect(maxSubscription(limits)).toBe('5000');
    expect(maxSubscription({ ...limits, quotaLeft: '250.5' })).toBe('250.5');
    expect(maxSubscription({ ...limits, available: '0' })).toBe('0');
  });

  it('names the balance, the minimum and the quota a refusal may be about', () => {
    expect(subscriptionFigures(limits)).toEqual({ balance: '5000', minimum: '1', quota: '10000' });
  });
});
