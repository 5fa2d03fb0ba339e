/**
 * Yardsticks for the API benchmark: pgbench (it comes with PostgreSQL) running a route's own
 * SQL for the same users, at the same concurrency, with nothing of Node in between. What the
 * route reaches against these is how much of the database's ceiling the app turns into answers.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** 1 AIC in 1e-8 units, and a quota no yardstick reaches. */
const ONE = 100_000_000;
const QUOTA = 10_000 * ONE;

/** The statements the buy used to send one by one, as one hand-written transaction. */
const BUY_STATEMENTS = `
\\set uid random(:lo, :hi)
\\set k random(1, 1000000000000)
BEGIN;
INSERT INTO idempotency_keys (user_id, key, request_hash, created_at) VALUES (:uid, 'pgb-' || :client_id || '-' || :k, 'yardstick', now());
SELECT inviter_id FROM users WHERE id = :uid;
INSERT INTO daily_quota AS q (user_id, day, used) VALUES (:uid, current_date, ${ONE})
  ON CONFLICT (user_id, day) DO UPDATE SET used = q.used + excluded.used WHERE q.used + excluded.used <= ${QUOTA};
INSERT INTO orders (user_id, product, principal, power, coefficient, status, start_day, created_at, cycle_start, matures_day)
  VALUES (:uid, 'current', ${ONE}, 0, NULL, 'in_progress', current_date, now(), now(), NULL) RETURNING id AS order_id \\gset
INSERT INTO journal_entries (kind, ref, created_at) VALUES ('subscribe', 'order:' || :order_id, now()) RETURNING id AS entry_id \\gset
INSERT INTO accounts AS a (user_id, asset, kind, balance, allow_negative) VALUES (:uid, 'AIC', 'earning', ${ONE}, false)
  ON CONFLICT (user_id, asset, kind) DO UPDATE SET balance = a.balance + excluded.balance;
UPDATE accounts SET balance = balance - ${ONE} WHERE user_id = :uid AND asset = 'AIC' AND kind = 'wallet';
INSERT INTO postings (entry_id, user_id, asset, kind, amount) VALUES (:entry_id, :uid, 'AIC', 'earning', ${ONE}), (:entry_id, :uid, 'AIC', 'wallet', -${ONE});
INSERT INTO notifications (user_id, kind, key, params, created_at, read_at) VALUES (:uid, 'subscribed', 'entry:' || :entry_id, jsonb_build_object('order', :order_id::text, 'product', 'current', 'amount', '1'), now(), now());
UPDATE idempotency_keys SET response_status = 200, response_body = '{"code":0}' WHERE user_id = :uid AND key = 'pgb-' || :client_id || '-' || :k;
COMMIT;
`;

/** The one statement the buy route sends now. */
const BUY_FUNCTION = `
\\set uid random(:lo, :hi)
\\set k random(1, 1000000000000)
SELECT * FROM earn_buy(:uid, 'pgf-' || :client_id || '-' || :k, 'yardstick', now(), current_date, 'current', ${ONE}, 0, NULL,
  'in_progress', current_date, now(), NULL, ${ONE}, ${QUOTA}, '{"code":0,"msg":"success","data":{"id":""}}'::jsonb, '{}'::jsonb);
`;

/** getAsset's reads: the session, the wallet's balances, the price in force. */
const ASSET_READS = `
\\set uid random(:lo, :hi)
SELECT user_id, last_seen_at FROM sessions WHERE user_id = :uid AND revoked_at IS NULL AND expires_at > now() LIMIT 1;
SELECT asset, kind, balance FROM accounts WHERE user_id = :uid AND kind IN ('wallet', 'withdrawals_pending');
SELECT value FROM params WHERE name = 'price.aic_usd' AND effective_day <= current_date ORDER BY effective_day DESC LIMIT 1;
`;

/**
 * The holder's whole history as CSV by one hand-written statement, for a session holder of a
 * platform of :holders (bench/holderSessions.ts spreads them so; the first five spread ids past
 * the chain give their place to chain holders, so those are skipped): the rows the export reads
 * (`movements_after`), each account's running balance, the same nine fields formatted and
 * joined. The export's type and flow names are the entry's own kind and the sign of its net here.
 * The time's colons come from chr(58): pgbench reads a colon in the text as a variable.
 */
const STATEMENT_CSV = `
\\set i random(6, 199)
\\set u 1 + :i * :holders / 200
SELECT string_agg(line, E'\\r\\n' ORDER BY entry_id, asset, account) FROM (
  SELECT m.entry_id, m.asset, m.account, concat_ws(',',
    replace(to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24#MI#SS.MS"Z"'), '#', chr(58)), m.entry_id,
    CASE WHEN m.entry_kind = 'settlement' THEN split_part(m.ref, ':', 3) ELSE m.entry_kind END,
    m.account, m.asset, (m.amount / 1e8)::numeric(30, 8),
    (sum(m.amount) OVER (PARTITION BY m.asset, m.account ORDER BY m.entry_id) / 1e8)::numeric(30, 8),
    CASE WHEN m.ref ~ '[",\\r\\n]' THEN '"' || replace(m.ref, '"', '""') || '"' ELSE coalesce(m.ref, '') END,
    CASE WHEN m.entry_net = 0 THEN 'internal' WHEN m.entry_net < 0 THEN 'out' WHEN m.entry_kind = 'settlement' THEN 'earnings' ELSE 'in' END) AS line
  FROM movements_after(:u::bigint, 0, 100000) m) lines;
`;

export const YARDSTICKS = {
  buyStatements: { name: 'pgbench: the buy statements, one transaction', script: BUY_STATEMENTS },
  buyFunction: { name: 'pgbench: earn_buy, one statement', script: BUY_FUNCTION },
  assetReads: { name: "pgbench: getAsset's reads", script: ASSET_READS },
  statementCsv: { name: 'pgbench: the CSV export by one statement', script: STATEMENT_CSV },
} as const;

export type Yardstick = keyof typeof YARDSTICKS;

/** Whether the database has the one-statement buy (an older build, measured for comparison, has not). */
export async function hasBuyFunction(dbUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const { rows } = await client.query(`select 1 from pg_proc where proname = 'earn_buy'`);
    return rows.length > 0;
  } finally {
    await client.end();
  }
}

/** The signed-in, bound users the API runs used: their ids are one contiguous range. */
export async function benchUserRange(dbUrl: string): Promise<{ lo: number; hi: number }> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ lo: string; hi: string; n: string }>(
      'select min(id) as lo, max(id) as hi, count(*) as n from users where inviter_id is not null',
    );
    const { lo, hi, n } = rows[0] ?? { lo: '0', hi: '0', n: '0' };
    if (Number(hi) - Number(lo) + 1 !== Number(n)) throw new Error('bench users are not one id range');
    return { lo: Number(lo), hi: Number(hi) };
  } finally {
    await client.end();
  }
}

/**
 * Runs one yardstick for `seconds` with `clients` connections (prepared statements, as a
 * tuned client would send them) and returns its transactions a second. `vars`: the script's
 * variables (the users' id range, or the platform's holders).
 */
export async function pgbench(dbUrl: string, which: Yardstick, clients: number, seconds: number, vars: Record<string, number>): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'pgbench-'));
  try {
    const file = join(dir, `${which}.sql`);
    writeFileSync(file, YARDSTICKS[which].script);
    const url = new URL(dbUrl);
    const defines = Object.entries(vars).flatMap(([name, value]) => ['-D', `${name}=${value}`]);
    const args = ['-n', '-M', 'prepared', '-c', String(clients), '-j', '2', '-T', String(seconds), ...defines, '-f', file];
    const env = {
      ...process.env,
      // A socket directory in ?host= (a Unix socket) wins over the host name, as for the app.
      PGHOST: url.searchParams.get('host') ?? url.hostname,
      PGPORT: url.port || '5432',
      PGUSER: decodeURIComponent(url.username) || process.env.USER || 'postgres',
      PGDATABASE: url.pathname.slice(1),
      ...(url.password ? { PGPASSWORD: decodeURIComponent(url.password) } : {}),
    };
    const { stdout } = await run('pgbench', args, { env, maxBuffer: 16 * 1024 * 1024 });
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout);
    const failed = /number of failed transactions: (\d+)/.exec(stdout);
    if (!tps) throw new Error(`pgbench printed no tps:\n${stdout}`);
    if (failed && Number(failed[1]) > 0) throw new Error(`pgbench: ${failed[1]} failed transactions`);
    return Number(tps[1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
