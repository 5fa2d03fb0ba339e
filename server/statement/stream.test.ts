import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUnits } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { STATEMENT_COLUMNS } from '../../contract/statement.ts';
import { checkLedger } from '../ledger/ledger.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, signIn } from '../test/signIn.ts';
import { csvField, csvLine, fixed8, statementCsv } from './csv.ts';
import { parseCsv } from './parseCsv.ts';

describe('CSV fields', () => {
  it('quotes commas, quotes and line breaks, and round-trips', () => {
    expect(csvField('order:12')).toBe('order:12');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    const fields = ['plain', 'a,b', 'say "hi"', 'two\nlines', ''];
    expect(parseCsv(csvLine(fields) + csvLine(['x']))).toEqual([fields, ['x']]);
  });

  it('writes amounts signed, exact, with 8 decimals', () => {
    expect(fixed8(0n)).toBe('0.00000000');
    expect(fixed8(1n)).toBe('0.00000001');
    expect(fixed8(-1_250_000_000n)).toBe('-12.50000000');
    expect(fixed8(123_456_789_012_345_678n)).toBe('1234567890.12345678');
  });

  it('writes any amount as its decimal form padded to 8 places', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), (value) => {
        const [whole, fraction = ''] = formatUnits(value).split('.');
        expect(fixed8(value)).toBe(`${whole}.${fraction.padEnd(8, '0')}`);
      }),
    );
  });
});

const ENTRIES = 20_000;

/** A holder with 20,000 postings (an entry each, from the outside world's account) inserted directly. */
describe.each(DATABASES)('a long history streams on %s', (kind) => {
  let t: TestApp;
  let token: string;
  let userId: bigint;

  beforeAll(async () => {
    t = await startTestApp(kind);
    const session = await signIn(t.app, { name: 'Longtail' });
    token = session.token;
    userId = BigInt(session.userId);
    await t.ctx.db.transaction().execute(async (trx) => {
      await sql`
        with entries as (
          insert into journal_entries (kind, ref, created_at)
          select 'transfer_in', 'transfer:' || g, timestamptz '2026-11-01T08:00:00Z' + g * interval '1 minute'
          from generate_series(1, ${ENTRIES}) g
          returning id, ref
        ),
        amounts as (select id, (substr(ref, 10)::bigint % 97 + 1) * 1000 as amount from entries)
        insert into postings (entry_id, user_id, asset, kind, amount)
        select id, side.user_id, 'AIC', side.kind, case when side.kind = 'wallet' then amount else -amount end
        from amounts cross join (values (${userId}::bigint, 'wallet'), (0::bigint, 'exchange')) as side(user_id, kind)`.execute(trx);
      await sql`
        insert into accounts (user_id, asset, kind, balance)
        select ${userId}, 'AIC', 'wallet', 0 on conflict do nothing`.execute(trx);
      // The holder's wallet holds its postings; the outside world's account gave them.
      const total = sql`(select coalesce(sum(amount), 0) from postings where user_id = ${userId} and asset = 'AIC' and kind = 'wallet')`;
      await sql`update accounts set balance = ${total} where user_id = ${userId} and asset = 'AIC' and kind = 'wallet'`.execute(trx);
      await sql`update accounts set balance = balance - ${total} where user_id = 0 and asset = 'AIC' and kind = 'exchange'`.execute(trx);
    });
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('exports every posting with exact running balances', async () => {
    const started = performance.now();
    const response = await t.app.inject({ url: PATHS.statementCsv, headers: bearer(token) });
    const elapsed = performance.now() - started;
    expect(response.statusCode).toBe(200);
    const [header, ...rows] = parseCsv(response.body);
    expect(header).toEqual([...STATEMENT_COLUMNS]);
    // One posting of the holder per entry (the demo balances are the exchange's, not the books').
    expect(rows).toHaveLength(ENTRIES);
    const running = new Map<string, bigint>();
    let lastEntry = 0n;
    for (const row of rows) {
      const [, entryId, , account, asset, amount, after] = row as string[];
      expect(BigInt(entryId as string) >= lastEntry).toBe(true);
      lastEntry = BigInt(entryId as string);
      const key = `${asset}|${account}`;
      const next = (running.get(key) ?? 0n) + BigInt((amount as string).replace('.', ''));
      running.set(key, next);
      expect(BigInt((after as string).replace('.', ''))).toBe(next);
    }
    const books = await t.ctx.db.selectFrom('accounts').select(['asset', 'kind', 'balance']).where('user_id', '=', userId).execute();
    for (const account of books) expect(running.get(`${account.asset}|${account.kind}`) ?? 0n).toBe(account.balance);
    console.info(`[statements] ${kind}: ${rows.length} rows exported in ${Math.round(elapsed)} ms`);
  });

  it('reads a page at a time, each ending on a whole entry, the same output for any page size', async () => {
    const chunks: string[] = [];
    for await (const chunk of statementCsv(t.ctx.db, userId, 1000)) chunks.push(chunk);
    // The header, then pages of at most 1,000 postings (a page may finish its last entry).
    expect(chunks.length).toBeGreaterThanOrEqual(1 + Math.ceil((ENTRIES) / 1001));
    for (const chunk of chunks.slice(1)) expect(chunk.split('\r\n').length - 1).toBeLessThanOrEqual(1001);
    const small: string[] = [];
    for await (const chunk of statementCsv(t.ctx.db, userId, 3)) {
      small.push(chunk);
      if (small.length > 400) break;
    }
    const whole = chunks.join('');
    expect(whole.startsWith(small.join(''))).toBe(true);
    for (const chunk of small.slice(1)) {
      const entries = chunk.trimEnd().split('\r\n').map((line) => line.split(',')[1]);
      expect(entries.length).toBeGreaterThanOrEqual(1);
      expect(entries.length).toBeLessThanOrEqual(4);
    }
  });

  it('streams over HTTP: the first rows arrive before the last are read', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${address}${PATHS.statementCsv}`, { headers: bearer(token) });
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value).startsWith(STATEMENT_COLUMNS.join(','))).toBe(true);
    await reader.cancel();
  });
});
