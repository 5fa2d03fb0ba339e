import { sql } from 'kysely';
import { formatUnits, parseRate, UNIT } from '../../contract/money.ts';
import type { RateHistoryData } from '../../contract/rates.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/connect.ts';
import { balanceOf, SYSTEM } from '../ledger/ledger.ts';
import { perOwner, shortLived } from '../platform/cache.ts';
import { gatheredCalls } from '../platform/readCalls.ts';
import { type EarnParams, paramsInForce } from './params.ts';
import { rateHistory } from './rates.ts';

/** The 360-day product's actual daily share over its last settled days: what the shares paid over the principal sharing them. */
type PoolRecent = { dailyRate: string; days: number };

export type PlatformFigures = { params: EarnParams; history: RateHistoryData; poolOutput: bigint; totalPower: bigint; poolRecent: PoolRecent | null };

/** The days the 360-day product's recent rate looks back over. */
const RECENT_DAYS = 7;

/**
 * The last RECENT_DAYS settled days' actual daily share of the 360-day product, weighted by
 * principal (what the days paid over the principal that shared them, kept by each day's
 * settlement, migration 0046), truncated to 1e-8; null before any such day.
 */
async function poolRecent(db: Db): Promise<PoolRecent | null> {
  const { rows } = await sql<{ paid: bigint | null; principal: bigint | null; days: number }>`
    select sum(static_paid)::bigint as paid, sum(static_principal)::bigint as principal, count(*)::int as days
    from (
      select static_paid, static_principal from settlement_days
      where status = 'done' and static_paid is not null and static_principal > 0
      order by day desc limit ${RECENT_DAYS}
    ) d`.execute(db);
  const row = rows[0];
  if (!row?.principal || row.days === 0) return null;
  return { dailyRate: formatUnits(((row.paid ?? 0n) * UNIT) / row.principal), days: row.days };
}

/**
 * The Earn centre's figures that are the same for every holder: the terms, their history, the
 * pool's output today and the earning orders' total power (kept by the day's settlement in
 * `pool_power`, never summed per request). A per-process copy at most PARAMS_CACHE_MS old.
 */
const platformOf = perOwner((ctx: AppContext) =>
  shortLived(ctx.config.paramsCacheMs, async (today: string): Promise<PlatformFigures> => {
    const [params, history, pool, power, recent] = await Promise.all([
      paramsInForce(ctx, today),
      rateHistory(ctx.db, ctx.config, today),
      balanceOf(ctx.db, { userId: SYSTEM, asset: 'AIC', kind: 'supercomputing_pool' }),
      ctx.db.selectFrom('pool_power').select('total').executeTakeFirst(),
      poolRecent(ctx.db),
    ]);
    const { numerator, denominator } = parseRate(params.poolDailyOutputRate);
    return { params, history, poolOutput: (pool * numerator) / denominator, totalPower: power?.total ?? 0n, poolRecent: recent };
  }),
);

export const platformFigures = (ctx: AppContext, today: string): Promise<PlatformFigures> => platformOf(ctx)(today);

export type HolderFigures = { used: bigint; inviterBound: boolean; wallet: bigint; rewards: bigint };

const holderFiguresOf = gatheredCalls<{ used: bigint | null; inviter_bound: boolean | null; wallet: bigint | null; rewards: bigint | null }>(
  'holder_figures',
  ['bigint', 'date'],
);

/**
 * The holder's own part of the Earn centre (`holder_figures`, productInfoFunction.ts): today's
 * quota used, the bind, the AIC wallet and rewards, gathered with the holders asking at once.
 */
export async function holderFigures(db: Db, userId: bigint, today: string): Promise<HolderFigures> {
  const [row] = await holderFiguresOf(db, userId, today);
  return { used: row?.used ?? 0n, inviterBound: row?.inviter_bound === true, wallet: row?.wallet ?? 0n, rewards: row?.rewards ?? 0n };
}
