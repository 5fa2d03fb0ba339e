import { type Kysely, sql } from 'kysely';

/**
 * Web Push, opt-in (issue 20). A holder's browsers that asked for notices, keyed by the holder
 * first like every holder's table; one row per push address and holder. An address is one
 * browser's: when another holder subscribes it (a shared device), it moves to them, so the
 * index on the address finds it. `after_id` is the subscription's cursor: notices up to it are
 * not sent (they came before it, or were sent long enough ago; see server/notify/push.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table push_subscriptions (
      user_id bigint not null,
      id bigint generated always as identity,
      endpoint text not null,
      p256dh text not null,
      auth text not null,
      language text not null,
      after_id bigint not null,
      created_at timestamptz not null,
      primary key (user_id, id),
      unique (user_id, endpoint)
    )`.execute(db);
  await sql`create index push_subscriptions_endpoint on push_subscriptions (endpoint)`.execute(db);
  // Each notice claimed for a subscription before it is sent: a second run, or a second process,
  // finds it there and sends nothing twice. Rows at or below the subscription's cursor go.
  await sql`
    create table push_deliveries (
      user_id bigint not null,
      subscription_id bigint not null,
      notification_id bigint not null,
      claimed_at timestamptz not null default now(),
      status smallint,
      primary key (user_id, subscription_id, notification_id)
    )`.execute(db);
  // The platform's VAPID key pair (one row), made on first start and kept: every browser's
  // subscription is bound to its public key.
  await sql`
    create table push_keys (
      id boolean primary key default true check (id),
      public_key text not null,
      private_key text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists push_keys`.execute(db);
  await sql`drop table if exists push_deliveries`.execute(db);
  await sql`drop table if exists push_subscriptions`.execute(db);
}
