import type { Transaction } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';

/** Writes one operator action to the audit log, in the caller's transaction when there is one. */
export async function audit(
  db: Db | Transaction<Database>,
  entry: { operatorId: bigint; action: string; target?: string | null; detail?: object; at: Date },
): Promise<void> {
  await db
    .insertInto('operator_audit')
    .values({
      operator_id: entry.operatorId,
      action: entry.action,
      target: entry.target ?? null,
      detail: JSON.stringify(entry.detail ?? {}),
      created_at: entry.at,
    })
    .execute();
}

export async function auditLog(db: Db, limit = 100) {
  const rows = await db.selectFrom('operator_audit').selectAll().orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => ({
    id: String(r.id),
    operatorId: String(r.operator_id),
    action: r.action,
    target: r.target,
    detail: r.detail as Record<string, unknown>,
    createdAt: r.created_at.toISOString(),
  }));
}
