import type { ZeroProfitData } from '../../../contract/team.ts';
import { unitsOf } from './amount.ts';

/** One unlock tier on the progress bar: its holding (1e-8 units), share and place (0..100). */
type TierMark = { holding: bigint; percent: string; at: number };

export type UnlockProgress = {
  held: bigint;
  /** The highest tier's holding: the end of the bar. */
  max: bigint;
  /** How far the holding reaches along the bar, 0..100 (drawing only). */
  filled: number;
  marks: TierMark[];
  /** The next tier above the holding and how much more it needs, or null at the top. */
  next: { holding: bigint; percent: string; missing: bigint } | null;
};

/** A share of the bar, 0..100 with two decimals, computed on exact units (drawing only). */
const place = (value: bigint, max: bigint): number => {
  if (max <= 0n) return 100;
  const capped = value > max ? max : value;
  return Number((capped * 10_000n) / max) / 100;
};

/** Where the holding stands against the unlock tiers (5,000 → 30%, 10,000 → 50% by default). */
export function unlockProgress(data: Pick<ZeroProfitData, 'held' | 'tiers'>): UnlockProgress {
  const held = unitsOf(data.held) ?? 0n;
  const tiers = data.tiers
    .map((tier) => ({ holding: unitsOf(tier.holding) ?? 0n, percent: tier.percent }))
    .sort((a, b) => (a.holding < b.holding ? -1 : a.holding > b.holding ? 1 : 0));
  const max = tiers.at(-1)?.holding ?? 0n;
  const above = tiers.find((tier) => tier.holding > held);
  return {
    held,
    max,
    filled: place(held, max),
    marks: tiers.map((tier) => ({ ...tier, at: place(tier.holding, max) })),
    next: above ? { ...above, missing: above.holding - held } : null,
  };
}

/** The share of network income a holding unlocks: the highest tier it reaches, else 0. */
export function unlockShareAt(tiers: ZeroProfitData['tiers'], held: bigint): string {
  let share = { holding: -1n, percent: '0' };
  for (const tier of tiers) {
    const holding = unitsOf(tier.holding) ?? 0n;
    if (holding <= held && holding > share.holding) share = { holding, percent: tier.percent };
  }
  return share.percent;
}
