import { describe, expect, it } from 'vitest';
import type { AssetData, ExchangeBalancesData } from '../../../../contract/wallet.ts';
import { exchangeFigure, sourceBalance } from './moves.ts';

const asset = (exchangeFresh: boolean, exchange: string | null): AssetData => ({
  walletAic: '5',
  earnAic: '0',
  claimableAic: '0',
  lockedAic: '0',
  totalAic: '5',
  owned: [
    { asset: 'AIC', total: '5', usd: '4.25' },
    { asset: 'USDT', total: '0', usd: '0' },
  ],
  totalUsd: '4.25',
  price: '0.85',
  balances: [
    { asset: 'AIC', available: '5', pending: '0', exchange },
    { asset: 'USDT', available: '0', pending: '0', exchange },
  ],
  exchangeFresh,
});
const line = (aic: string | null): ExchangeBalancesData => ({
  balances: [
    { asset: 'AIC', exchange: aic },
    { asset: 'USDT', exchange: '1000' },
  ],
});

describe('the exchange figure the wallet shows', () => {
  it('takes the exchange line’s answer first, then getAsset’s fresh copy, and is pending without either', () => {
    expect(exchangeFigure('AIC', asset(true, '20'), line('19'))).toBe('19');
    expect(exchangeFigure('AIC', asset(true, '20'), undefined)).toBe('20');
    expect(exchangeFigure('AIC', asset(false, null), undefined)).toBeUndefined();
    expect(exchangeFigure('AIC', undefined, undefined)).toBeUndefined();
  });

  it('says null when the exchange could not say, from either answer', () => {
    expect(exchangeFigure('AIC', asset(false, null), line(null))).toBeNull();
    expect(exchangeFigure('AIC', asset(true, null), undefined)).toBeNull();
  });

  it('checks a move against the side the money leaves from', () => {
    expect(sourceBalance('recharge', 'AIC', asset(false, null), line('19'))).toBe('19');
    expect(sourceBalance('transfer_in', 'AIC', asset(false, null), undefined)).toBeUndefined();
    expect(sourceBalance('transfer_in', 'AIC', asset(false, null), line(null))).toBeUndefined();
    expect(sourceBalance('withdraw', 'AIC', asset(false, null), line('19'))).toBe('5');
  });
});
