import { type Kysely, sql } from 'kysely';

/**
 * Concurrent binds on PostgreSQL could leave stored paths stale, or close a referral cycle
 * (issue 24). This rewrites every path from `inviter_id`, root by root, where it differs. A
 * holder on a cycle, or below one, is reached from no root and keeps the path it has: a cycle is
 * not repaired silently. The tree check reports it to the operator, who unbinds one member with
 * an audit entry (POST /api/operator/team/unbind), and the paths below are written then.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    with recursive down(id, path) as (
      select id, '{}'::bigint[] from users where inviter_id is null
      union all
      select u.id, d.path || d.id from users u join down d on u.inviter_id = d.id
    )
    update users set path = down.path from down
    where users.id = down.id and users.path is distinct from down.path`.execute(db);
}

export async function down(): Promise<void> {
  // Nothing to undo: the paths it wrote are the true ones.
}
