import { type Kysely, sql } from 'kysely';

/**
 * Users, their sessions and the sign-in state of the OAuth redirect. Sessions are keyed by
 * (user_id, token_hash): the token carries its user id, so a lookup stays on one shard.
 * Only a hash of each token is kept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table users (
      id bigserial primary key,
      subject text not null unique,
      name text not null,
      invite_code text not null unique,
      inviter_id bigint,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table sessions (
      user_id bigint not null,
      token_hash text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      last_seen_at timestamptz not null,
      revoked_at timestamptz,
      user_agent text,
      primary key (user_id, token_hash)
    )`.execute(db);
  await sql`
    create table oauth_states (
      state text primary key,
      code_verifier text not null,
      nonce text not null,
      redirect_uri text not null,
      redirect_refer text,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      consumed_at timestamptz
    )`.execute(db);
  await sql`
    create table embedded_provider (
      name text primary key,
      value jsonb not null
    )`.execute(db);
  await sql`
    create table exchange_accounts (
      subject text primary key,
      name text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['exchange_accounts', 'embedded_provider', 'oauth_states', 'sessions', 'users']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
