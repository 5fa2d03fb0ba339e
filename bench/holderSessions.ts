/**
 * The holders bench/api.ts signs in on a populated platform (bench/population.ts), and what a
 * real sign-in leaves them: a session, and a grant at the server's embedded exchange (its
 * exchange_grants row, sealed tokens the exchange honours), so the routes that ask the exchange
 * (getAsset, transferPage, the exchange line) go its way as in production instead of skipping
 * it for want of a token.
 *
 * The population's holders are exchange accounts the embedded provider does not know. Each
 * session holder is made one (exchange_accounts, under the population's subject) and its user is
 * named as a sign-in names it (`<issuer>|<subject>`, server/auth/oauth.ts); it then signs in over
 * HTTP, picking that account on the provider's page, and the login finds the population's user
 * and saves its grant. The exchange opens the holder's account there (its books: the demo
 * balances) the first time the platform asks it for the holder's balances.
 */
import { sql } from 'kysely';
import { UNIT } from '../contract/money.ts';
import { PATHS } from '../contract/paths.ts';
import { signInOverHttp } from '../e2e/support/httpSignIn.ts';
import type { RunningServer } from '../e2e/support/server.ts';
import { connect, type Db } from '../server/db/connect.ts';
import { postEntry, SYSTEM } from '../server/ledger/ledger.ts';
import { inPool } from './apiLoad.ts';
import type { HolderValues } from './holderRoutes.ts';
import { CHAIN, type Platform } from './population.ts';
import { type Figure, int } from './report.ts';

/** Holders with a session on each platform. */
export const SESSIONS = 200;
/** Chain holders among them: teams from the whole platform (holder 1) down to a branch. */
const TEAM_HOLDERS = [1, 11, 21, 31, 41, CHAIN + 1];
/** Each session holder's wallet: far more than the runs' 1-AIC buys take. */
const FUNDING = 10_000n * UNIT;

/** Whether the signed-in holders hold a grant, and whether the exchange answers for them. */
export type Grants = { holders: number; withGrant: number; exchangeShown: number };

export type Sessions = { ids: number[]; tokens: string[]; buyers: string[]; values: HolderValues; grants: Grants };

/**
 * SESSIONS ids spread evenly over the platform's, the TEAM_HOLDERS not among them put in place of
 * the first ids past the chain (the rest stay evenly spread).
 */
function sessionHolders(platformHolders: number): number[] {
  const ids = Array.from({ length: SESSIONS }, (_, i) => Math.floor((i * platformHolders) / SESSIONS) + 1);
  const missing = TEAM_HOLDERS.filter((id) => !ids.includes(id));
  let at = ids.findIndex((id) => id > CHAIN + 1);
  for (const id of missing) ids[at++] = id;
  return ids;
}

export const teamsAmong = (sessions: Sessions) => sessions.ids.filter((id) => TEAM_HOLDERS.includes(id)).sort((a, b) => a - b);

/** The issuer the server's embedded provider signs in with: users are named after it. */
async function issuerOf(origin: string): Promise<string> {
  const response = await fetch(`${origin}/oidc/.well-known/openid-configuration`);
  if (!response.ok) throw new Error(`the embedded provider's discovery: ${response.status} (is OIDC_ISSUER set?)`);
  return ((await response.json()) as { issuer: string }).issuer;
}

/**
 * The session holders of `platform` signed in through the server's embedded exchange, each with
 * FUNDING in the wallet; the values their queries take (an order of theirs, a code not theirs).
 */
export async function openSessions(platform: Platform, server: RunningServer): Promise<Sessions> {
  const ids = sessionHolders(platform.holders);
  const handle = await connect({ databaseUrl: platform.url, poolSize: 8 });
  try {
    await fund(handle.db, ids);
    const subjects = await asExchangeAccounts(handle.db, ids, await issuerOf(server.baseUrl));
    const signedIn = await inPool(ids.length, 8, async (i) => {
      const session = await signInOverHttp(server.baseUrl, { account: subjects[i] ?? '' });
      if (session.userId !== String(ids[i])) throw new Error(`signing in as ${subjects[i]} found user ${session.userId}, not holder ${ids[i]}`);
      return session.token;
    });
    const grants = await grantsInPlace(handle.db, server.baseUrl, ids, signedIn);
    return {
      ids,
      tokens: signedIn,
      // Holder 1, the tree's root, has no inviter, and a buy needs one.
      buyers: signedIn.filter((_, i) => ids[i] !== 1),
      values: await holderValues(handle.db, ids),
      grants,
    };
  } finally {
    await handle.close();
  }
}

/** FUNDING into each holder's wallet, from the platform's exchange account. */
async function fund(db: Db, ids: number[]): Promise<void> {
  await db.transaction().execute((trx) =>
    postEntry(trx, {
      kind: 'bench',
      ref: 'bench:sessions',
      at: new Date(),
      postings: [
        { userId: SYSTEM, asset: 'AIC', kind: 'exchange', amount: -FUNDING * BigInt(ids.length) },
        ...ids.map((id) => ({ userId: BigInt(id), asset: 'AIC' as const, kind: 'wallet' as const, amount: FUNDING })),
      ],
    }),
  );
}

/**
 * Each holder an account of the embedded provider's under its population subject, and its user
 * named as a sign-in through `issuer` names it: the subjects, in the order of `ids`.
 */
async function asExchangeAccounts(db: Db, ids: number[], issuer: string): Promise<string[]> {
  const users = await db.selectFrom('users').select(['id', 'subject', 'name']).where('id', 'in', ids.map(BigInt)).execute();
  const subjectOf = new Map(users.map((u) => [Number(u.id), u.subject.slice(u.subject.indexOf('|') + 1)]));
  const accounts = users.map((u) => ({ subject: subjectOf.get(Number(u.id)) as string, name: u.name }));
  await db.insertInto('exchange_accounts').values(accounts).onConflict((oc) => oc.column('subject').doNothing()).execute();
  await sql`update users set subject = ${issuer} || '|' || substr(subject, strpos(subject, '|') + 1)
    where id = any(${ids}::bigint[])`.execute(db);
  return ids.map((id) => {
    const subject = subjectOf.get(id);
    if (!subject) throw new Error(`holder ${id} is not on the platform`);
    return subject;
  });
}

/** An order of each holder's, and the next session holder's invitation code (never the holder's own). */
async function holderValues(db: Db, ids: number[]): Promise<HolderValues> {
  const { rows: orders } = await sql<{ user_id: string; id: string }>`
    select user_id::text, min(id)::text as id from orders where user_id = any(${ids}::bigint[]) group by user_id`.execute(db);
  const orderOf = new Map(orders.map((o) => [Number(o.user_id), o.id]));
  const users = await db.selectFrom('users').select(['id', 'invite_code']).where('id', 'in', ids.map(BigInt)).execute();
  const codeOf = new Map(users.map((u) => [Number(u.id), u.invite_code]));
  return {
    orderIds: ids.map((id) => {
      const order = orderOf.get(id);
      if (!order) throw new Error(`holder ${id} has no order for ${PATHS.product}`);
      return order;
    }),
    inviteCodes: ids.map((_, i) => codeOf.get(ids[(i + 1) % ids.length] as number) ?? ''),
  };
}

/** A getAsset answer's figures at the exchange (null: it could not say, or had no fresh copy). */
type AssetAnswer = { code: number; data?: { balances?: { asset: string; exchange?: string | null }[] } };

/**
 * How many of `userIds` hold a grant (their exchange_grants row), and for how many getAsset
 * shows the exchange's balance within a few seconds (a server that keeps a copy asks the
 * exchange apart from the first answer). This also opens each holder's account at the exchange.
 */
export async function grantsInPlace(db: Db, origin: string, userIds: (number | string)[], tokens: string[]): Promise<Grants> {
  const { rows } = await sql<{ n: string }>`
    select count(*)::text as n from exchange_grants where user_id = any(${userIds.map(String)}::bigint[])`.execute(db);
  const shown = await inPool(tokens.length, 8, async (i) => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const answer = (await (await fetch(`${origin}${PATHS.getAsset}`, { headers: { authorization: `Bearer ${tokens[i]}` } })).json()) as AssetAnswer;
      if (answer.data?.balances?.some((b) => b.asset === 'AIC' && typeof b.exchange === 'string')) return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  });
  return { holders: userIds.length, withGrant: Number(rows[0]?.n ?? 0), exchangeShown: shown.filter(Boolean).length };
}

export const grantsLine = (g: Grants) =>
  `${int(g.withGrant)} of ${int(g.holders)} hold a grant at the embedded exchange; getAsset shows the exchange balance of ${int(g.exchangeShown)}`;

export const grantsFigure = (label: string, g: Grants): Figure => ({
  benchmark: 'api',
  figure: `${label}: exchange grants (from a sign-in over HTTP)`,
  value: grantsLine(g),
  goal: 'all',
  met: g.withGrant === g.holders && g.exchangeShown === g.holders,
});
