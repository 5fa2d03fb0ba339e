import type { Db } from '../db/connect.ts';
import type { HealthCheckName } from '../db/schema.ts';

/**
 * The last result of the ledger and tree checks, wherever they ran (the scheduler after each
 * day, an operator's console): the alerting gauges read it from here, so a process that never
 * ran a check reports the platform's state, not its own lack of one.
 */
export async function recordCheck(db: Db, name: HealthCheckName, ok: boolean, at: Date, detail: object = {}): Promise<void> {
  const row = { ok, checked_at: at, detail: JSON.stringify(detail) };
  await db
    .insertInto('health_checks')
    .values({ name, ...row })
    .onConflict((oc) => oc.column('name').doUpdateSet(row))
    .execute();
}

export type LastCheck = { ok: boolean; checkedAt: Date };

export async function lastChecks(db: Db): Promise<Partial<Record<HealthCheckName, LastCheck>>> {
  const rows = await db.selectFrom('health_checks').select(['name', 'ok', 'checked_at']).execute();
  return Object.fromEntries(rows.map((r) => [r.name, { ok: r.ok, checkedAt: r.checked_at }]));
}
