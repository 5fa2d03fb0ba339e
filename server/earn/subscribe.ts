import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ErrorName } from '../../contract/errors.ts';
import type { AppContext } from '../context.ts';
import { isDatabaseUnavailable } from '../db/failures.ts';
import type { Product } from '../db/schema.ts';
import { retryConflicts } from '../db/transact.ts';
import { AppError } from '../http/errors.ts';
import { type Answer, idempotencyKeyOf, refusal, requestHash } from '../http/idempotency.ts';
import { ok } from '../http/schemas.ts';
import { perOwner } from '../platform/cache.ts';
import { utcDay } from '../platform/clock.ts';
import { paramsInForce } from './params.ts';
import { toOrder } from './repository.ts';
import { type BuyInput, newOrder } from './service.ts';

/** The refusals `earn_buy` may choose, in the order `buy` checks them. */
const REFUSALS: ErrorName[] = ['BELOW_MINIMUM', 'BIND_FIRST', 'QUOTA', 'DAILY_QUOTA', 'BALANCE'];
/** Buys sent in one statement at the most. */
const BATCH_MAX = 250;
/**
 * Batches of one process in the database at once. Batches of many holders share holders, and
 * two of them at once mostly wait on each other's row locks: the next one fills meanwhile.
 */
const IN_FLIGHT = 2;
/**
 * How long a buy in a batch waits for a row another transaction holds (`earn_buy_batch_within`):
 * a settlement step holds the earning accounts it credits until it commits, and one holder's
 * wait would hold up the whole batch, and the batches behind it. Longer than a batch holds its
 * own rows, so two batches of the same holder still wait for each other.
 */
const BATCH_LOCK_WAIT = '100ms';

type Outcome = { outcome: string; status: number | null; body: Answer['body'] | null };

/** One buy as `earn_buy` takes it: everything the answer needs but the order's id. */
type Item = {
  user: string; key: string; hash: string; now: string; today: string;
  product: Product; amount: string; power: string; coefficient: string | null; status: string;
  startDay: string; cycleStart: string | null; maturesDay: string | null; autoRenew: boolean;
  minimum: string; quota: string; answer: Answer['body']; refusals: Record<string, Answer>;
};

/**
 * A subscription in one round trip: everything the answer needs but the order's id is known
 * here (the parameters in force come from the per-process copy), so `earn_buy` (migration 0014)
 * can claim the key, check, write and store the finished answer in one statement. Same checks,
 * codes and stored answers as `buy` run through `idempotent`; a property test holds them equal.
 * With BUY_BATCH_MS, the buys of that moment share one statement and one commit.
 */
export async function subscribe(
  ctx: AppContext,
  request: FastifyRequest,
  input: BuyInput,
): Promise<Answer> {
  const now = ctx.clock.now();
  const today = utcDay(now);
  const params = await paramsInForce(ctx, today);
  const order = newOrder(params, input, now);
  const item: Item = {
    user: String(input.userId),
    key: idempotencyKeyOf(request),
    hash: requestHash(request),
    now: now.toISOString(),
    today,
    product: order.product,
    amount: String(order.principal),
    power: String(order.power),
    coefficient: order.coefficient,
    status: order.status,
    startDay: order.start_day,
    cycleStart: order.cycle_start?.toISOString() ?? null,
    maturesDay: order.matures_day,
    autoRenew: order.auto_renew,
    minimum: String(params.minimum),
    quota: String(params.dailyQuota),
    answer: ok(toOrder(order, now)) as Answer['body'],
    // By name, not as errors: an Error takes a stack trace, five a buy.
    refusals: Object.fromEntries(REFUSALS.map((name) => [name, refusal(request, name)])),
  };
  const result = ctx.config.buyBatchMs > 0 ? await batcherOf(ctx).submit(item) : await buyAlone(ctx, item);
  if (result.outcome === 'IDEMPOTENCY_MISMATCH') throw new AppError('IDEMPOTENCY_MISMATCH');
  if (result.outcome === 'IDEMPOTENCY_BUSY') return refusal(request, new AppError('IDEMPOTENCY_BUSY'));
  return { status: result.status ?? 200, body: result.body as Answer['body'] };
}

async function buyAlone(ctx: AppContext, item: Item): Promise<Outcome> {
  const { rows } = await retryConflicts(() => sql<Outcome>`select b.outcome, b.status, b.body from earn_buy_batch(${JSON.stringify([item])}::jsonb) b`.execute(ctx.db));
  const [result] = rows;
  if (!result) throw new Error('earn_buy answered nothing');
  return result;
}

type Waiting = { item: Item; resolve: (outcome: Outcome) => void; reject: (error: unknown) => void };

/**
 * Collects the buys that arrive within BUY_BATCH_MS (or BATCH_MAX of them) and sends them as one
 * statement, at most IN_FLIGHT batches at a time (group commit: while they run, the next batch
 * fills). A batch that fails for any reason but an outage is sent again item by item, so one bad
 * item cannot fail the others. With `lockWait`, a buy that would wait longer for a row (answered
 * LOCKED) goes to `patient`, which sends it again, waiting as long as it takes.
 */
class BuyBatcher {
  /** How many batches were sent, and the sizes of the latest 100 (for tests and the curious). */
  sent = 0;
  readonly recentSizes: number[] = [];
  /** The sizes of the batches sent since `sent` was `mark`. */
  sizesSince(mark: number): number[] {
    return this.recentSizes.slice(this.recentSizes.length - Math.min(this.sent - mark, this.recentSizes.length));
  }
  private queue: Waiting[] = [];
  private timer: NodeJS.Timeout | null = null;
  constructor(
    private readonly ctx: AppContext,
    private readonly lockWait: string | null,
    private readonly patient: BuyBatcher | null,
  ) {}

  submit(item: Item): Promise<Outcome> {
    return new Promise((resolve, reject) => this.enqueue({ item, resolve, reject }));
  }

  private enqueue(waiting: Waiting): void {
    this.queue.push(waiting);
    if (this.queue.length >= BATCH_MAX) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.ctx.config.buyBatchMs);
  }

  private inFlight = 0;

  /** Sends what is waiting, unless enough batches are in the database already (their end calls again). */
  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.inFlight >= IN_FLIGHT || this.queue.length === 0) return;
    const batch = this.queue.splice(0, BATCH_MAX);
    this.inFlight += 1;
    void this.send(batch).finally(() => {
      this.inFlight -= 1;
      this.flush();
    });
    if (this.queue.length > 0) this.flush();
  }

  private async send(batch: Waiting[]): Promise<void> {
    this.sent += 1;
    this.recentSizes.push(batch.length);
    if (this.recentSizes.length > 100) this.recentSizes.shift();
    try {
      const items = JSON.stringify(batch.map((w) => w.item));
      const { rows } = await retryConflicts(() =>
        sql<Outcome & { idx: number }>`select * from earn_buy_batch_within(${items}::jsonb, ${this.lockWait}::text)`.execute(this.ctx.db),
      );
      const answered = new Set<number>();
      for (const row of rows) {
        const waiting = batch[row.idx];
        if (!waiting) continue;
        if (row.outcome !== 'LOCKED') waiting.resolve(row);
        else if (this.patient) this.patient.enqueue(waiting);
        else waiting.reject(new Error('a buy answered LOCKED with no lock wait set'));
        answered.add(row.idx);
      }
      for (const [idx, waiting] of batch.entries()) if (!answered.has(idx)) waiting.reject(new Error('earn_buy_batch left a buy unanswered'));
    } catch (error) {
      if (batch.length === 1 || isDatabaseUnavailable(error)) {
        for (const waiting of batch) waiting.reject(error);
        return;
      }
      await Promise.all(batch.map((w) => buyAlone(this.ctx, w.item).then(w.resolve, w.reject)));
    }
  }
}

export const batcherOf = perOwner((ctx: AppContext) => new BuyBatcher(ctx, BATCH_LOCK_WAIT, new BuyBatcher(ctx, null, null)));
