import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL } from '../test/harness.ts';
import { connect, type DbHandle } from './connect.ts';
import { LATEST_MIGRATION, migrateToLatest } from './migrate.ts';

/** Migrations on PostgreSQL, where several processes and test files share one database. */
describe('migrating a schema on postgres', () => {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  const schemas: string[] = [];

  async function freshSchema(): Promise<DbHandle> {
    const schema = `m_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    await admin.query(`create schema ${schema}`);
    return connect({ databaseUrl: TEST_DATABASE_URL, schema, poolSize: 4 });
  }

  beforeAll(() => admin.connect());
  afterAll(async () => {
    for (const schema of schemas) await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  it('applies every migration once when two processes start at the same moment', async () => {
    const shared = await freshSchema();
    const second = await connect({ databaseUrl: TEST_DATABASE_URL, schema: schemas.at(-1), poolSize: 4 });
    await Promise.all([migrateToLatest(shared.db), migrateToLatest(second.db)]);
    const { rows } = await sql<{ name: string; n: number }>`
      select name, count(*)::int as n from kysely_migration group by name order by name`.execute(shared.db);
    expect(rows.at(-1)?.name).toBe(LATEST_MIGRATION);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    // Running again finds nothing to do and changes nothing.
    await migrateToLatest(shared.db);
    const again = await sql<{ n: number }>`select count(*)::int as n from kysely_migration`.execute(shared.db);
    expect(again.rows[0]?.n).toBe(rows.length);
    await Promise.all([shared.close(), second.close()]);
  });

  it('is not disturbed by other schemas being created and dropped meanwhile', async () => {
    // Kysely's own migrator scanned every table of the database and failed with "schema … does
    // not exist" when another test file dropped its schema during the scan.
    const churn = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await churn.connect();
    let stop = false;
    const churning = (async () => {
      while (!stop) {
        const name = `churn_${randomBytes(4).toString('hex')}`;
        await churn.query(`create schema ${name}; create table ${name}.t (id bigserial primary key, a int, b text)`);
        await churn.query(`drop schema ${name} cascade`);
      }
    })();
    try {
      for (let i = 0; i < 8; i++) {
        const handle = await freshSchema();
        await migrateToLatest(handle.db);
        await handle.close();
      }
    } finally {
      stop = true;
      await churning;
      await churn.end();
    }
  });
});
