import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL } from '../test/harness.ts';
import { connect, type Db, type DbHandle } from './connect.ts';

/** One connection, so every statement below runs on the connection whose prepared statements are read. */
const open = (prepare?: boolean) => connect({ databaseUrl: TEST_DATABASE_URL, poolSize: 1, prepare });

/** The statements prepared on the handle's one connection, by their text. */
async function preparedTexts(db: Db): Promise<string[]> {
  const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db);
  return rows.map((r) => r.statement);
}

describe('statements run again outside a transaction keep their plan (PostgreSQL)', () => {
  let handle: DbHandle | undefined;
  afterEach(() => handle?.close());

  it('a read with parameters is prepared the second time it runs, and answers as before', async () => {
    handle = await open();
    const db = handle.db;
    const read = async (n: number) => (await sql<{ n: number }>`select ${n}::int + 1 as n`.execute(db)).rows[0]?.n;
    const mine = async () => (await preparedTexts(db)).filter((t) => t.includes('::int + 1 as n'));
    expect(await read(1)).toBe(2);
    expect(await mine()).toEqual([]);
    expect(await read(2)).toBe(3);
    expect(await read(3)).toBe(4);
    expect(await mine()).toHaveLength(1);
  });

  it('statements inside a transaction, or without parameters, are sent unnamed', async () => {
    handle = await open();
    const tag = `t${randomBytes(4).toString('hex')}`;
    await handle.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 3; i++) await sql`select ${i}::int as ${sql.ref(tag)}`.execute(trx);
    });
    for (let i = 0; i < 3; i++) await sql`select 1 as ${sql.ref(`${tag}_plain`)}`.execute(handle.db);
    expect((await preparedTexts(handle.db)).filter((t) => t.includes(tag))).toEqual([]);
  });

  it('DATABASE_PREPARED_STATEMENTS=false (prepare: false): nothing is prepared', async () => {
    handle = await open(false);
    for (let i = 0; i < 3; i++) await sql`select ${i}::int as unprepared`.execute(handle.db);
    expect(await preparedTexts(handle.db)).toEqual([]);
  });

  it('a connection keeps at most 200; the statements past them still answer', async () => {
    handle = await open();
    const tag = randomBytes(4).toString('hex');
    for (let i = 0; i < 210; i++) {
      for (let twice = 0; twice < 2; twice++) {
        const { rows } = await sql<{ n: number }>`select ${i}::int as n, ${sql.lit(`${tag}_${i}`)} as tag`.execute(handle.db);
        expect(rows[0]?.n).toBe(i);
      }
    }
    expect((await preparedTexts(handle.db)).filter((t) => t.includes(tag))).toHaveLength(200);
  });

  it('a statement the server connection lost (a pooler in transaction mode) is sent again unnamed, and so is every later one', async () => {
    handle = await open();
    const db = handle.db;
    const read = async (n: number) => (await sql<{ n: number }>`select ${n}::int * 2 as n`.execute(db)).rows[0]?.n;
    expect(await read(1)).toBe(2);
    expect(await read(2)).toBe(4);
    expect((await preparedTexts(db)).filter((t) => t.includes('::int * 2 as n'))).toHaveLength(1);
    // As if PgBouncer had sent the next statement to a server connection that never prepared it.
    await sql`deallocate all`.execute(db);
    expect(await read(3)).toBe(6);
    for (let i = 0; i < 3; i++) expect(await read(i)).toBe(i * 2);
    for (let i = 0; i < 3; i++) await sql`select ${i}::int as after_lost`.execute(db);
    expect(await preparedTexts(db)).toEqual([]);
  });

  it('a table swapped under a prepared read (as team_stats is each day) is read anew', async () => {
    handle = await open();
    const table = `swap_${randomBytes(4).toString('hex')}`;
    const db = handle.db;
    await sql`create table ${sql.table(table)} (id int primary key, n int not null)`.execute(db);
    try {
      await sql`insert into ${sql.table(table)} values (1, 10)`.execute(db);
      const read = async () => (await sql<{ n: number }>`select n from ${sql.table(table)} where id = ${1}`.execute(db)).rows[0]?.n;
      for (let i = 0; i < 7; i++) expect(await read()).toBe(10);
      await db.transaction().execute(async (trx) => {
        await sql`create table ${sql.table(`${table}_next`)} (id int primary key, n int not null)`.execute(trx);
        await sql`insert into ${sql.table(`${table}_next`)} values (1, 20)`.execute(trx);
        await sql`drop table ${sql.table(table)}`.execute(trx);
        await sql`alter table ${sql.table(`${table}_next`)} rename to ${sql.table(table)}`.execute(trx);
      });
      expect(await read()).toBe(20);
    } finally {
      await sql`drop table if exists ${sql.table(table)}`.execute(db);
    }
  });
});
