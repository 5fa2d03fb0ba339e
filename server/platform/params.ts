import { sql, type Transaction } from 'kysely';
import { FIRST_VERSION_DAY } from '../../contract/rates.ts';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';

/**
 * Versioned parameters: a value applies from its effective day on, so a change never touches
 * days already settled and any past day can be recomputed with the values in force then.
 */
export const PARAM = {
  aicPriceUsd: 'price.aic_usd',
} as const;
/** Any versioned parameter: the price, the earn parameters (earn/params.ts) and the team rules (team/rules.ts). */
export type ParamName = (typeof PARAM)[keyof typeof PARAM] | `earn.${string}` | `team.${string}`;


export type ParamVersion = { value: string; effectiveDay: string };

/**
 * The version of each named parameter in force on a day: the newest effective on or before it.
 * A name with no such version is absent (its configured default applies).
 */
export async function versionsInForce(db: Db | Transaction<Database>, names: readonly string[], day: string): Promise<Map<string, ParamVersion>> {
  const rows = await db
    .selectFrom('params')
    .select(['name', 'value', sql<string>`effective_day::text`.as('effective_day')])
    .distinctOn('name')
    .where('name', 'in', names)
    .where('effective_day', '<=', sql<string>`${day}::date`)
    .orderBy('name')
    .orderBy('effective_day', 'desc')
    .execute();
  return new Map(rows.map((r) => [r.name, { value: r.value, effectiveDay: r.effective_day }]));
}

/** The value in force on a day, and the one before it (for change figures), newest first. */
export async function paramHistory(db: Db, name: ParamName, day: string, limit = 2): Promise<ParamVersion[]> {
  const rows = await db
    .selectFrom('params')
    .select(['value', 'effective_day'])
    .where('name', '=', name)
    .where('effective_day', '<=', sql<string>`${day}::date`)
    .orderBy('effective_day', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ value: r.value, effectiveDay: String(r.effective_day) }));
}

export async function setParam(
  db: Db | Transaction<Database>,
  name: ParamName,
  effectiveDay: string,
  value: string,
  scheduledAt: Date = new Date(),
): Promise<void> {
  await db
    .insertInto('params')
    .values({ name, effective_day: effectiveDay, value, created_at: scheduledAt })
    // Changing a scheduled value announces it anew: its scheduled time moves too.
    .onConflict((oc) => oc.columns(['name', 'effective_day']).doUpdateSet({ value, created_at: scheduledAt }))
    .execute();
}

/**
 * Stores `value` as the first version of a parameter that has none yet; a parameter with any
 * version keeps it (a restart with other environment values changes nothing already stored).
 */
export async function seedFirstVersion(db: Db | Transaction<Database>, name: ParamName, value: string, at: Date): Promise<void> {
  await sql`
    insert into params (name, effective_day, value, created_at)
    select ${name}, ${FIRST_VERSION_DAY}::date, ${value}, ${at}
    where not exists (select 1 from params where name = ${name})
    on conflict do nothing`.execute(db);
}
