import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../contract/languages.ts';
import type { NoticeKind } from '../../contract/notifications.ts';
import { wordNotice } from './wording.ts';

/** One notice of each kind, with the figures settlement, reviews and binds give it. */
const SAMPLES: Record<NoticeKind, Record<string, string>> = {
  income: { day: '2026-11-02', total: '4.5' },
  transfer_approved: { id: '7', type: 'withdraw', asset: 'AIC', amount: '10' },
  transfer_rejected: { id: '8', type: 'transfer_out', asset: 'USDT', amount: '20', reason: 'address check' },
  member_bound: { member: 'Hana' },
  order_redeemable: { order: '12', principal: '1000', income: '90', reason: 'quota', limit: '10000' },
  order_renewed: { order: '12', renewal: '40', principal: '1090', income: '90', day: '2026-12-02' },
  order_ended: { order: '13', principal: '500' },
  lockup_released: { day: '2026-11-01', amount: '5' },
  terms_change: { name: 'earn.fixed30.daily_rate', value: '0.004', day: '2026-12-01' },
  new_device: { browser: 'Chrome', os: 'Android' },
  money_in: { id: '9', type: 'recharge', asset: 'USDT', amount: '500' },
  subscribed: { order: '14', product: 'fixed30', amount: '1000' },
  redeemed: { order: '15', product: 'current', amount: '250.5' },
  claimed: { amount: '12', what: 'network' },
};

/** The day's income notice with the network income it unlocked, and one of a day that only unlocked. */
const UNLOCKS: [NoticeKind, Record<string, string>][] = [
  ['income', { day: '2026-11-03', total: '4.5', unlocked: '5' }],
  ['income', { day: '2026-11-03', total: '0', unlocked: '5' }],
];

/** The server words a push with the app's texts: every kind in every language, nothing left unfilled. */
describe('push wording', () => {
  it.each(LANGUAGES.map((l) => l.key))('words every kind of notice in %s', (language) => {
    for (const [kind, params] of [...(Object.entries(SAMPLES) as [NoticeKind, Record<string, string>][]), ...UNLOCKS]) {
      const words = wordNotice(language, { kind, params });
      for (const line of [words.title, words.text, words.note ?? '']) {
        expect(line, `${kind} ${line}`).not.toMatch(/\{\{|notifications\.|wallet\.type|operator\.params|sessions\.|product\./);
      }
      expect(words.title.length, kind).toBeGreaterThan(0);
    }
  });

  it('fills the figures as the app shows them', () => {
    expect(wordNotice('en', { kind: 'income', params: SAMPLES.income })).toEqual({ title: 'Income credited', text: '4.50 AIC credited for 2026-11-02' });
    expect(wordNotice('en', { kind: 'transfer_rejected', params: SAMPLES.transfer_rejected }).note).toBe('Reason: address check');
    expect(wordNotice('en', { kind: 'money_in', params: SAMPLES.money_in }).text).toBe('Recharge of 500.00 USDT credited to your wallet');
    expect(wordNotice('en', { kind: 'subscribed', params: SAMPLES.subscribed }).text).toBe('1,000.00 AIC subscribed to 30 days, order 14');
    expect(wordNotice('en', { kind: 'redeemed', params: SAMPLES.redeemed }).text).toBe('250.50 AIC of Current order 15 back in your wallet');
    expect(wordNotice('en', { kind: 'claimed', params: SAMPLES.claimed }).text).toBe('12.00 AIC of unlocked network income moved to your wallet');
    expect(wordNotice('en', { kind: 'income', params: UNLOCKS[0]?.[1] ?? {} })).toEqual({
      title: 'Income credited',
      text: '4.50 AIC credited for 2026-11-03; 5.00 AIC of network income unlocked, ready to claim',
    });
    expect(wordNotice('en', { kind: 'income', params: UNLOCKS[1]?.[1] ?? {} })).toEqual({
      title: 'Network income unlocked',
      text: '5.00 AIC of network income unlocked on 2026-11-03, ready to claim',
    });
  });
});
