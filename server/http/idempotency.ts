import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Transaction } from 'kysely';
import { ERRORS, type ErrorName } from '../../contract/errors.ts';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { InsufficientBalance } from '../ledger/ledger.ts';
import { AppError } from './errors.ts';
import { messageLanguage, translate } from './messages.ts';
import { ok } from './schemas.ts';
import { transact } from '../db/transact.ts';

const KEY_RE = /^[A-Za-z0-9_-]{8,100}$/;

export type Answer = { status: number; body: { code: number; msg: string; data: unknown } };

export function requestHash(request: FastifyRequest): string {
  const route = request.routeOptions.url ?? request.url;
  return createHash('sha256')
    .update(`${request.method} ${route} ${JSON.stringify(request.params)}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

export function idempotencyKeyOf(request: FastifyRequest): string {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string' || !KEY_RE.test(key)) throw new AppError('IDEMPOTENCY_REQUIRED');
  return key;
}

/** Every POST under /api must carry an Idempotency-Key; checked after sign-in, before the body. */
export function requireIdempotencyKeys(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!methods.includes('POST') || !route.url.startsWith('/api/')) return;
    const existing = route.preValidation ? [route.preValidation].flat() : [];
    route.preValidation = [
      async (request: FastifyRequest) => {
        idempotencyKeyOf(request);
      },
      ...existing,
    ] as typeof route.preValidation;
  });
}

/** The answer that refuses `request` with `error` (or an error's name), in the caller's language. */
export function refusal(request: FastifyRequest, error: AppError | ErrorName): Answer {
  const entry = ERRORS[typeof error === 'string' ? error : error.errorName];
  const msg = translate(entry.message, messageLanguage(request.headers['x-lang']));
  return { status: entry.http, body: { code: entry.code, msg, data: null } };
}

/**
 * Runs a POST's effect at most once per (user, Idempotency-Key). The key row is inserted in the
 * same transaction as the effect and holds its answer, so a repeat gets the first answer; a
 * repeat that arrives while the first runs waits on the key (the database's unique index) and
 * then gets that answer; the same key with another body is refused. A refusal is stored too,
 * so a repeat is refused the same way; an unexpected failure stores nothing and may be retried.
 */
export async function idempotent<T>(
  ctx: AppContext,
  request: FastifyRequest,
  userId: bigint,
  effect: (trx: Transaction<Database>) => Promise<T>,
  insufficient: AppError = new AppError('BALANCE'),
): Promise<Answer> {
  const result = await waitingWhileBusy(() => keyedOnce(ctx, request, userId, effect, insufficient, true));
  return 'answer' in result ? result.answer : { status: 200, body: ok(result.started) as Answer['body'] };
}

/**
 * For effects that end outside the key's transaction (a transfer the exchange must confirm):
 * the key is claimed and the effect started in one transaction, its answer left empty for
 * whoever ends the effect to store (a repeat meanwhile is told to retry). A refusal or a replay
 * comes back as `answer`, as `idempotent` gives it.
 */
export function idempotentStart<T>(
  ctx: AppContext,
  request: FastifyRequest,
  userId: bigint,
  effect: (trx: Transaction<Database>, key: string) => Promise<T>,
  insufficient: AppError = new AppError('BALANCE'),
): Promise<{ started: T } | { answer: Answer }> {
  const key = idempotencyKeyOf(request);
  return waitingWhileBusy(() => keyedOnce(ctx, request, userId, (trx) => effect(trx, key), insufficient, false));
}

/**
 * Whether this request's Idempotency-Key has been used already (a repeat): checks made before an
 * effect (asking the exchange, say) are for first requests only; a repeat gets the first answer.
 */
export async function isRepeat(ctx: AppContext, request: FastifyRequest, userId: bigint): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('idempotency_keys')
    .select('key')
    .where('user_id', '=', userId)
    .where('key', '=', idempotencyKeyOf(request))
    .executeTakeFirst();
  return row !== undefined;
}

/** How long a repeat waits for the first request's answer before it is told to retry (IDEMPOTENCY_BUSY). */
const BUSY_WAIT_MS = 15_000;
const BUSY_POLL_MS = 25;

/** Runs `once` again while the key's first request is still running, then gives its answer (or BUSY after a while). */
async function waitingWhileBusy<R extends object>(once: () => Promise<R>): Promise<R> {
  const until = Date.now() + BUSY_WAIT_MS;
  for (;;) {
    const result = await once();
    const busy = 'answer' in result && (result.answer as Answer).body.code === ERRORS.IDEMPOTENCY_BUSY.code;
    if (!busy || Date.now() >= until) return result;
    await new Promise((resolve) => setTimeout(resolve, BUSY_POLL_MS));
  }
}

async function keyedOnce<T>(
  ctx: AppContext,
  request: FastifyRequest,
  userId: bigint,
  effect: (trx: Transaction<Database>) => Promise<T>,
  insufficient: AppError,
  storeAnswer: boolean,
): Promise<{ started: T } | { answer: Answer }> {
  const key = idempotencyKeyOf(request);
  const hash = requestHash(request);
  const now = ctx.clock.now();
  try {
    return await transact(ctx.db, async (trx) => {
      const claimed = await trx
        .insertInto('idempotency_keys')
        .values({ user_id: userId, key, request_hash: hash, created_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (!claimed) return { answer: await replay(trx, userId, key, hash) };
      const started = await effect(trx);
      if (storeAnswer) await store(trx, userId, key, { status: 200, body: ok(started) as Answer['body'] });
      return { started };
    });
  } catch (error) {
    const appError = error instanceof InsufficientBalance ? insufficient : error;
    if (!(appError instanceof AppError) || appError.errorName === 'IDEMPOTENCY_MISMATCH') throw appError;
    const answer = refusal(request, appError);
    await ctx.db
      .insertInto('idempotency_keys')
      .values({
        user_id: userId,
        key,
        request_hash: hash,
        created_at: now,
        response_status: answer.status,
        response_body: JSON.stringify(answer.body),
      })
      .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
      .execute();
    return { answer };
  }
}

async function replay(trx: Transaction<Database>, userId: bigint, key: string, hash: string): Promise<Answer> {
  const row = await trx
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'response_status', 'response_body'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  if (row.request_hash !== hash) throw new AppError('IDEMPOTENCY_MISMATCH');
  if (row.response_status === null) throw new AppError('IDEMPOTENCY_BUSY');
  return { status: row.response_status, body: row.response_body as Answer['body'] };
}

async function store(trx: Transaction<Database>, userId: bigint, key: string, answer: Answer): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set({ response_status: answer.status, response_body: JSON.stringify(answer.body) })
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .execute();
}

/**
 * How old a claim with no answer must be before a repeat takes its work over: its process died,
 * or lost the database (a failover), before it could store the answer or release the key. The
 * work is settlement's, whose every step runs once whoever runs it, or the demo clock's.
 */
const CLAIM_LEASE = sql<Date>`now() - interval '5 minutes'`;

/**
 * For effects that run their own transactions (settlement, the clock): the key is claimed
 * first, the work runs, then its answer is stored. A repeat meanwhile is told to retry
 * (busy), until the claim is older than CLAIM_LEASE and the repeat takes it over; a failure
 * releases the key so that a retry can run.
 */
export async function idempotentClaimFirst<T>(
  ctx: AppContext,
  request: FastifyRequest,
  userId: bigint,
  work: () => Promise<T>,
): Promise<Answer> {
  const key = idempotencyKeyOf(request);
  const hash = requestHash(request);
  const claimed =
    (await ctx.db
      .insertInto('idempotency_keys')
      .values({ user_id: userId, key, request_hash: hash, created_at: ctx.clock.now(), claimed_at: sql<Date>`now()` })
      .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst()) ??
    (await ctx.db
      .updateTable('idempotency_keys')
      .set({ claimed_at: sql<Date>`now()` })
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .where('request_hash', '=', hash)
      .where('response_status', 'is', null)
      .where('claimed_at', '<', CLAIM_LEASE)
      .returning('key')
      .executeTakeFirst());
  if (!claimed) return transact(ctx.db, (trx) => replay(trx, userId, key, hash));
  try {
    const answer: Answer = { status: 200, body: ok(await work()) as Answer['body'] };
    await transact(ctx.db, (trx) => store(trx, userId, key, answer));
    return answer;
  } catch (error) {
    await ctx.db.deleteFrom('idempotency_keys').where('user_id', '=', userId).where('key', '=', key).execute();
    throw error;
  }
}

/**
 * Sends an idempotent POST's answer: the stored first answer, or the one just made. The answer
 * was checked against the route's schema when it was first made, so the reply takes it as it is.
 */
export function sendAnswer(reply: FastifyReply, answer: Answer): FastifyReply {
  return reply.code(answer.status).send(answer.body);
}
