import type { Asset } from '../../contract/wallet.ts';
import type { ExchangeClient } from './exchangeClient.ts';

/** A holder's available balance at the exchange per asset; null where the exchange could not say. */
export type ExchangeBalances = Record<Asset, string | null>;

type Asker = {
  client: Pick<ExchangeClient, 'balances'>;
  accessToken(userId: bigint): Promise<string | undefined>;
};

/**
 * The holder's balances asked of the exchange now, with no copy: a token lookup (maybe a
 * refresh), then its API. Null each when it cannot say (no consent, no answer, a refusal).
 */
export async function askExchange(port: Asker, userId: bigint, known?: string): Promise<ExchangeBalances> {
  const token = known ?? (await port.accessToken(userId).catch(() => undefined));
  const answer = token ? await port.client.balances(token).catch(() => undefined) : undefined;
  const of = (asset: Asset) => answer?.balances.find((b) => b.asset === asset)?.available ?? null;
  return { AIC: of('AIC'), USDT: of('USDT') };
}

/**
 * Values kept `ttlMs` each, at most `maxEntries` of them: past it the oldest goes first, and the
 * expired ones go as new ones come. Per process; `now` is the wall clock unless a test gives one.
 */
export function boundedCopies<K, V>(options: { ttlMs: number; maxEntries: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  // In the order they were kept (a value kept again moves to the end): the oldest first.
  const kept = new Map<K, { value: V; at: number }>();
  return {
    /** The value if kept less than `ttlMs` ago. */
    get(key: K): V | undefined {
      const copy = kept.get(key);
      if (copy === undefined) return undefined;
      if (now() - copy.at < options.ttlMs) return copy.value;
      kept.delete(key);
      return undefined;
    },
    set(key: K, value: V): void {
      if (options.ttlMs <= 0 || options.maxEntries <= 0) return;
      const at = now();
      kept.delete(key);
      for (const [oldest, copy] of kept) {
        if (kept.size < options.maxEntries && at - copy.at < options.ttlMs) break;
        kept.delete(oldest);
      }
      kept.set(key, { value, at });
    },
    delete(key: K): void {
      kept.delete(key);
    },
    get size(): number {
      return kept.size;
    },
  };
}

/**
 * Copies kept per process at most: a copy is a few hundred bytes, and only holders who opened
 * the wallet within the last EXCHANGE_BALANCE_TTL_MS are kept, so the bound is seldom reached.
 */
const COPIES_MAX = 100_000;

/** This process's copies of the holders' balances at the exchange (`exchangeBalanceCopies`). */
export type ExchangeBalanceCopies = {
  /** The holder's copy if fresh; else undefined at once, and the exchange is asked in the background for the next read. */
  peek(userId: bigint): ExchangeBalances | undefined;
  /** The holder's copy if fresh, else the exchange's answer: one call for every read of the holder's meanwhile. */
  read(userId: bigint): Promise<ExchangeBalances>;
  /** The holder's balances at the exchange may have changed (a move of theirs, a new consent): the copy goes, and a read under way is not kept. */
  forget(userId: bigint): void;
};

/**
 * The holders' balances at the exchange as the wallet shows them: a copy per holder kept
 * `ttlMs` (EXCHANGE_BALANCE_TTL_MS), so that opening the wallet again and again costs the
 * exchange one call every few seconds at most, and `getAsset` answers without waiting on it.
 * A failure is kept too: an exchange that is down is not asked again by every opening.
 */
export function exchangeBalanceCopies(
  port: Asker,
  options: { ttlMs: number; maxEntries?: number; now?: () => number },
): ExchangeBalanceCopies {
  const copies = boundedCopies<bigint, ExchangeBalances>({
    ttlMs: options.ttlMs,
    maxEntries: options.maxEntries ?? COPIES_MAX,
    ...(options.now ? { now: options.now } : {}),
  });
  const asking = new Map<bigint, Promise<ExchangeBalances>>();

  const read = (userId: bigint): Promise<ExchangeBalances> => {
    const copy = copies.get(userId);
    if (copy) return Promise.resolve(copy);
    const underWay = asking.get(userId);
    if (underWay) return underWay;
    const answer: Promise<ExchangeBalances> = askExchange(port, userId)
      .catch(() => ({ AIC: null, USDT: null }))
      .then((balances) => {
        // Kept unless a move of the holder's came since it was asked (`forget` let it go).
        if (asking.get(userId) === answer) {
          asking.delete(userId);
          copies.set(userId, balances);
        }
        return balances;
      });
    asking.set(userId, answer);
    return answer;
  };

  return {
    read,
    peek(userId) {
      const copy = copies.get(userId);
      if (copy === undefined && options.ttlMs > 0) void read(userId);
      return copy;
    },
    forget(userId) {
      copies.delete(userId);
      asking.delete(userId);
    },
  };
}
