import { createECDH } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Transaction } from 'kysely';
import webpush from 'web-push';
import { isLanguageKey, type LanguageKey } from '../../contract/languages.ts';
import { noticeTarget } from '../../contract/noticeWording.ts';
import { type NoticeKind, OWN_MOVE_NOTICES } from '../../contract/notifications.ts';
import type { PushPayload, PushSubscribeBody } from '../../contract/push.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { transact } from '../db/transact.ts';
import { hostMatches, isPublicHostName } from '../platform/network.ts';
import { repeat } from '../platform/repeat.ts';
import { wordNotice } from './wording.ts';
import { holderNotices } from './dayNotices.ts';
import { addressesProblem, deliverPush, lookupAll, lookupHost, type PushPolicy, type Resolver } from './pushTransport.ts';

/**
 * Web Push, opt-in (issue 20). A holder's browser subscribes (the switch on My); afterwards each
 * new notice of theirs is sent to it, worded in the subscription's language. Nothing is sent in
 * the statement or transaction that writes a notice (a settled day writes a million at once):
 * a dispatcher reads the notices after each subscription's cursor, claims each one for that
 * subscription in `push_deliveries` (a claimed notice is never sent again, by this process or
 * another), then sends. At most once: a process that dies between the claim and the send loses
 * that push (the notice is still in the notification centre).
 */

/** A browser may keep this many subscriptions per holder: the oldest beyond it go. */
const MAX_SUBSCRIPTIONS = 10;
/** Notices claimed per run of the dispatcher, and per subscription within it. */
const PUSH_BATCH = 200;
const PER_SUBSCRIPTION = 20;
/** Sends in flight at once. */
const PARALLEL = 8;
/** How long a push service may keep an undelivered notice (a phone that is off), seconds. */
const TTL_SECONDS = 24 * 60 * 60;
const SEND_TIMEOUT_MS = 10_000;

type Keys = { publicKey: string; privateKey: string };
const keysByDb = new WeakMap<Db, Promise<Keys>>();

/**
 * The platform's VAPID key pair: made on first use (a new database) and kept in `push_keys`, so
 * every process signs with the same key the browsers subscribed with. Two processes starting at
 * once make one each; the first row wins and both read it.
 */
export function pushKeys(db: Db): Promise<Keys> {
  let keys = keysByDb.get(db);
  if (!keys) {
    keys = (async () => {
      const made = webpush.generateVAPIDKeys();
      await db
        .insertInto('push_keys')
        .values({ public_key: made.publicKey, private_key: made.privateKey })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      const row = await db.selectFrom('push_keys').select(['public_key', 'private_key']).executeTakeFirstOrThrow();
      return { publicKey: row.public_key, privateKey: row.private_key };
    })();
    keysByDb.set(db, keys);
    keys.catch(() => keysByDb.delete(db));
  }
  return keys;
}

/**
 * Why the server will not send to this address, as written, or null. A public server sends only
 * to public https addresses (the push services'); one on a laptop or in the tests (PUBLIC_URL
 * local) also to its own network and over http. With PUSH_ALLOWED_HOSTS, only to those hosts.
 * What the host resolves to is checked when sending (pushTransport.ts).
 */
export function endpointProblem(endpoint: string, policy: PushPolicy): string | null {
  if (!URL.canParse(endpoint)) return 'the endpoint is not an address';
  const url = new URL(endpoint);
  if (url.username || url.password) return 'the endpoint carries credentials';
  if (policy.pushAllowedHosts.length > 0 && !hostMatches(url.hostname, policy.pushAllowedHosts)) {
    return 'the endpoint is not one of the allowed push services (PUSH_ALLOWED_HOSTS)';
  }
  if (policy.pushLocalEndpoints) return /^https?:$/.test(url.protocol) ? null : 'the endpoint is not http(s)';
  if (url.protocol !== 'https:') return 'the endpoint is not https';
  return isPublicHostName(url.hostname) ? null : 'the endpoint is a local address';
}

/**
 * endpointProblem, then, on a public server, what the host resolves to now: a name of the
 * subscriber's that resolves to this network is refused at once. A lookup that fails or takes
 * over SEND_TIMEOUT_MS refuses nothing (DNS may be down a moment): the sender resolves and checks
 * again on every send.
 */
export async function subscribeProblem(endpoint: string, policy: PushPolicy, resolve: Resolver = lookupAll): Promise<string | null> {
  const problem = endpointProblem(endpoint, policy);
  if (problem || policy.pushLocalEndpoints) return problem;
  try {
    return addressesProblem(await lookupHost(new URL(endpoint), resolve, AbortSignal.timeout(SEND_TIMEOUT_MS)), policy);
  } catch {
    return null;
  }
}

/** Why the browser's keys cannot be encrypted to, or null: a P-256 point and a 16-byte secret. */
export function keysProblem(keys: { p256dh: string; auth: string }): string | null {
  const point = Buffer.from(keys.p256dh, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return 'p256dh is not an uncompressed P-256 key';
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(point);
  } catch {
    return 'p256dh is not a point of P-256';
  }
  return Buffer.from(keys.auth, 'base64url').length === 16 ? null : 'auth is not 16 bytes';
}

/** Removes subscriptions (and their claims) matched by `where`, a condition on `push_subscriptions`. */
async function removeWhere(db: Db | Transaction<Database>, where: ReturnType<typeof sql>): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    with gone as (delete from push_subscriptions where ${where} returning user_id, id),
    claims as (delete from push_deliveries d using gone where d.user_id = gone.user_id and d.subscription_id = gone.id)
    select count(*) as n from gone`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Subscribes this browser for the holder, or updates its keys and language. Notices the holder
 * has already are not sent (the cursor starts at the newest). An address another holder had
 * subscribed moves to this one: a shared device gets only its current holder's notices.
 */
export async function subscribePush(trx: Transaction<Database>, userId: bigint, body: PushSubscribeBody, at: Date): Promise<void> {
  await removeWhere(trx, sql`endpoint = ${body.endpoint} and user_id <> ${userId}`);
  await sql`
    insert into push_subscriptions (user_id, endpoint, p256dh, auth, language, after_id, created_at)
    values (${userId}, ${body.endpoint}, ${body.keys.p256dh}, ${body.keys.auth}, ${body.language},
      greatest((select max(id) from notifications where user_id = ${userId}), (select max(notice_id) from settlement_days), 0), ${at})
    on conflict (user_id, endpoint) do update
      set p256dh = excluded.p256dh, auth = excluded.auth, language = excluded.language`.execute(trx);
  await removeWhere(
    trx,
    sql`user_id = ${userId} and id not in (
      select id from push_subscriptions where user_id = ${userId} order by id desc limit ${MAX_SUBSCRIPTIONS})`,
  );
}

/** Stops sending to this address for the holder; 0 when it is not theirs (or not there). */
export function unsubscribePush(trx: Transaction<Database>, userId: bigint, endpoint: string): Promise<number> {
  return removeWhere(trx, sql`user_id = ${userId} and endpoint = ${endpoint}`);
}

type Claimed = {
  user_id: string;
  subscription_id: string;
  notification_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  language: string;
  kind: NoticeKind;
  params: Record<string, string>;
};

type PushReport = { claimed: number; sent: number; failed: number; removed: number };

/** The notice in the subscription's language, and the app's route it opens. */
function pushPayload(claim: Pick<Claimed, 'notification_id' | 'language' | 'kind' | 'params'>): PushPayload {
  const language: LanguageKey = isLanguageKey(claim.language) ? claim.language : 'en';
  const words = wordNotice(language, claim);
  return {
    title: words.title,
    body: words.note ? `${words.text}\n${words.note}` : words.text,
    url: `/#${noticeTarget(claim)}`,
    tag: `notice-${claim.notification_id}`,
  };
}

/**
 * One encrypted, VAPID-signed request to the push service (web-push builds it, pushTransport.ts
 * sends it): its status, 0 when none came, or 'refused' when the address is not one to send to.
 */
async function send(claim: Claimed, keys: Keys, config: AppContext['config'], resolve: Resolver): Promise<number | 'refused'> {
  if (endpointProblem(claim.endpoint, config) !== null) return 'refused';
  const request = webpush.generateRequestDetails(
    { endpoint: claim.endpoint, keys: { p256dh: claim.p256dh, auth: claim.auth } },
    JSON.stringify(pushPayload(claim)),
    { vapidDetails: { subject: config.vapidSubject, publicKey: keys.publicKey, privateKey: keys.privateKey }, TTL: TTL_SECONDS, contentEncoding: 'aes128gcm' },
  );
  const delivery = await deliverPush(request, config, resolve, SEND_TIMEOUT_MS);
  return 'refused' in delivery ? 'refused' : delivery.status;
}

/**
 * Up to PUSH_BATCH notices, oldest first, newer than their subscription's cursor and not claimed
 * for it, at most PER_SUBSCRIPTION a subscription: (user_id, subscription_id, notification_id,
 * kind, params). Rows and day notices alike, read by holder: nothing the settlement pays for.
 * The holder's own money moves are left out: they made them on the screen.
 */
export const pushCandidates = () => sql`
  select s.user_id, s.id as subscription_id, n.id as notification_id, n.kind, n.params
  from push_subscriptions s
  cross join lateral (${holderNotices(sql`s.user_id`, {
    after: sql`s.after_id`,
    where: (id) => sql`not exists (
      select 1 from push_deliveries d
      where d.user_id = s.user_id and d.subscription_id = s.id and d.notification_id = ${id})`,
    exceptKinds: OWN_MOVE_NOTICES,
  }, 'asc', PER_SUBSCRIPTION)}) n
  order by n.id
  limit ${PUSH_BATCH}`;

/**
 * One run: claims up to PUSH_BATCH notices newer than their subscription's cursor and not yet
 * claimed for it (oldest first), and sends each. Only holders who subscribed are read (the
 * notices by their primary key, holder first: no index the settlement pays for). A 404 or 410
 * from the push service means the browser's subscription is gone: it is deleted, as is one whose
 * address is refused (endpointProblem, or its host resolves to a local address on a public
 * server). Other failures (5xx, 429, a redirect, no answer) are recorded on the claim and not
 * retried. `resolve` looks hosts up (tests make a public name resolve to 127.0.0.1).
 */
export async function dispatchPush(ctx: AppContext, resolve: Resolver = lookupAll): Promise<PushReport> {
  const keys = await pushKeys(ctx.db);
  const { rows } = await transact(ctx.db, async (trx) => {
    // A probe per subscription and day: a cost the planner puts above JIT's threshold with a few
    // thousand subscriptions, and compiling then took far longer than the statement runs.
    await sql`set local jit = off`.execute(trx);
    return sql<Claimed>`
    with candidates as (${pushCandidates()}
    ), claimed as (
      insert into push_deliveries (user_id, subscription_id, notification_id)
      select user_id, subscription_id, notification_id from candidates
      on conflict do nothing
      returning user_id, subscription_id, notification_id
    )
    select c.user_id::text, c.subscription_id::text, c.notification_id::text,
      s.endpoint, s.p256dh, s.auth, s.language, n.kind, n.params
    from claimed c
    join push_subscriptions s on s.user_id = c.user_id and s.id = c.subscription_id
    join candidates n on n.user_id = c.user_id and n.subscription_id = c.subscription_id
      and n.notification_id = c.notification_id
    order by c.notification_id`.execute(trx);
  });

  const report: PushReport = { claimed: rows.length, sent: 0, failed: 0, removed: 0 };
  const gone = new Set<string>();
  const queue = [...rows];
  const worker = async () => {
    for (let claim = queue.shift(); claim; claim = queue.shift()) {
      const subscription = `${claim.user_id}:${claim.subscription_id}`;
      if (gone.has(subscription)) continue;
      const status = await send(claim, keys, ctx.config, resolve);
      if (status === 'refused' || status === 404 || status === 410) {
        gone.add(subscription);
        // Not `report.removed += await …`: that reads the count before waiting, beside other workers.
        const removed = await removeWhere(ctx.db, sql`user_id = ${claim.user_id}::bigint and id = ${claim.subscription_id}::bigint`);
        report.removed += removed;
        continue;
      }
      if (status >= 200 && status < 300) report.sent++;
      else report.failed++;
      await ctx.db
        .updateTable('push_deliveries')
        .set({ status })
        .where('user_id', '=', BigInt(claim.user_id))
        .where('subscription_id', '=', BigInt(claim.subscription_id))
        .where('notification_id', '=', BigInt(claim.notification_id))
        .execute();
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return report;
}

/**
 * Moves each subscription's cursor up to the newest notice claimed for it more than `grace` ago,
 * and drops the claims below it, so a run reads only recent notices. Not to the newest claimed:
 * a transaction that writes notices (a settled day) may commit a lower id after a higher one was
 * sent, and that notice must still be found above the cursor. A day is far longer than any of them.
 */
export async function advancePushCursors(db: Db, grace = '1 day'): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    with done as (
      select user_id, subscription_id, max(notification_id) as through
      from push_deliveries
      where claimed_at < now() - ${grace}::interval
      group by user_id, subscription_id
    ), moved as (
      update push_subscriptions s set after_id = done.through
      from done
      where s.user_id = done.user_id and s.id = done.subscription_id and done.through > s.after_id
      returning s.user_id, s.id, s.after_id
    ), dropped as (
      delete from push_deliveries d using moved
      where d.user_id = moved.user_id and d.subscription_id = moved.id and d.notification_id <= moved.after_id
    )
    select count(*) as n from moved`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Sends new notices to the subscribed browsers every PUSH_INTERVAL_MS, in the process that runs
 * the scheduled work (main.ts starts it beside the settlement scheduler). A run that claimed a
 * full batch goes on at once; the cursors move once an hour. Safe in several processes at once:
 * a notice is claimed by one.
 */
export function startPushDispatcher(ctx: AppContext, log: FastifyBaseLogger): () => void {
  if (ctx.config.pushIntervalMs <= 0) return () => {};
  let advancedAt = 0;
  return repeat(ctx.config.pushIntervalMs, log, 'push dispatch failed; will retry', async () => {
    let report: PushReport;
    do {
      report = await dispatchPush(ctx);
      if (report.claimed > 0) log.info({ push: report }, 'push notifications sent');
    } while (report.claimed === PUSH_BATCH);
    if (Date.now() - advancedAt > HOUR_MS) {
      await advancePushCursors(ctx.db);
      advancedAt = Date.now();
    }
  });
}
