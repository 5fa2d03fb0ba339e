import { describe, expect, it } from 'vitest';
import type { Order } from '../../../contract/earn.ts';
import { UNIT } from '../../../contract/money.ts';
import { redeemCost } from './redeemCost.ts';

const tiers = [
  { holding: '10000', percent: '0.5' },
  { holding: '5000', percent: '0.3' },
];

const order = (product: Order['product'], quantity: string, redeemable: string, income = '0'): Order => ({
  id: '1',
  product,
  quantity,
  income,
  redeemable,
  status: product === 'fixed30' ? 'redeemable' : 'in_progress',
  reinvest: false,
  autoRenew: false,
  renewedFrom: null,
  renewedTo: null,
  createdAt: '2027-01-01T00:00:00.000Z',
  startDay: '2027-01-01',
  maturesDay: null,
  remainingDays: null,
  countdownSeconds: 3600,
  dates: null,
  power: null,
  coefficient: null,
});

describe('what a redemption costs', () => {
  it("gives up a current order's running cycle: its holding × the daily rate, truncated", () => {
    const cost = redeemCost(order('current', '3000', '3270.12345678', '270.12345678'), '0.001', { held: '20000', tiers });
    expect(cost.cycleIncome).toBe(327_012_345n);
    expect(cost.tierDrop).toBeNull();
  });

  it('names the unlock tier before and after when the principal leaves the holding under a tier', () => {
    const cost = redeemCost(order('fixed30', '3270', '3564.3', '294.3'), null, { held: '8000', tiers });
    expect(cost.cycleIncome).toBeNull();
    expect(cost.tierDrop).toEqual({ heldBefore: 8000n * UNIT, heldAfter: 4730n * UNIT, before: '0.3', after: '0' });
  });

  it('keeps the tier when the holding stays at or above it, to the last unit', () => {
    expect(redeemCost(order('current', '3000', '3000'), '0.001', { held: '13000', tiers }).tierDrop).toBeNull();
    expect(redeemCost(order('current', '3000.00000001', '3000.00000001'), '0.001', { held: '13000', tiers }).tierDrop).toEqual({
      heldBefore: 13_000n * UNIT,
      heldAfter: 10_000n * UNIT - 1n,
      before: '0.5',
      after: '0.3',
    });
  });

  it('counts a part from the income first: only what exceeds the income leaves the holding', () => {
    const current = order('current', '5000', '5400', '400');
    // 400 of income and 100 of principal: 10,000 held falls to 9,900, under the 50% tier.
    const cost = redeemCost(current, '0.001', { held: '10000', tiers }, 500n * UNIT);
    expect(cost.cycleIncome).toBe(50_000_000n);
    expect(cost.tierDrop).toEqual({ heldBefore: 10_000n * UNIT, heldAfter: 9_900n * UNIT, before: '0.5', after: '0.3' });
    // Income alone: the holding stays.
    expect(redeemCost(current, '0.001', { held: '10000', tiers }, 400n * UNIT).tierDrop).toBeNull();
  });
});
