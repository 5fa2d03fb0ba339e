import { mulRate, parseRate } from '../../contract/money.ts';
import type { Asset } from '../../contract/wallet.ts';
import type { AppContext } from '../context.ts';
import { perOwner, shortLived } from './cache.ts';
import { utcDay } from './clock.ts';
import { PARAM, paramHistory } from './params.ts';

type Price = { price: string; rate: string };
const priceOf = perOwner((ctx: AppContext) =>
  shortLived(ctx.config.paramsCacheMs, async (day: string): Promise<Price> => {
    const [current, previous] = await paramHistory(ctx.db, PARAM.aicPriceUsd, day);
    const price = current?.value ?? ctx.config.aicPriceUsd;
    return { price, rate: previous ? percentChange(previous.value, price) : '0.00' };
  }),
);

/**
 * The AIC price in force today, and its change from the previous price in percent. Read through
 * a per-process copy at most PARAMS_CACHE_MS old: every wallet screen shows it.
 */
export function currentPrice(ctx: AppContext): Promise<Price> {
  return priceOf(ctx)(utcDay(ctx.clock.now()));
}

/** USDT units valued in AIC units at a USD price for one AIC, truncated at 1e-8. */
export function usdtInAic(usdt: bigint, price: string): bigint {
  const { numerator, denominator } = parseRate(price);
  return numerator === 0n ? 0n : (usdt * denominator) / numerator;
}

/** Units of an asset valued in USD: AIC at `price` (USD for one AIC), USDT one for one; truncated at 1e-8. */
export const inUsd = (asset: Asset, units: bigint, price: string): bigint => (asset === 'AIC' ? mulRate(units, price) : units);

/** (new - old) / old * 100, truncated to 2 decimals, exact. */
function percentChange(oldValue: string, newValue: string): string {
  const a = parseRate(oldValue);
  const b = parseRate(newValue);
  if (a.numerator === 0n) return '0.00';
  // new/old - 1 = (bn * ad - an * bd) / (bd * an); scaled by 100 * 100 for two decimals.
  const scaled =
    ((b.numerator * a.denominator - a.numerator * b.denominator) * 10_000n) / (b.denominator * a.numerator);
  const negative = scaled < 0n;
  const abs = negative ? -scaled : scaled;
  const text = `${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
  return negative ? `-${text}` : text;
}
