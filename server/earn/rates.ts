import { sql } from 'kysely';
import { PRODUCT_TERMS, type RateHistoryData, type RateVersion, type UpcomingChange } from '../../contract/rates.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/connect.ts';
import type { Product } from '../db/schema.ts';
import { EARN_PARAM_NAMES } from './params.ts';

const NAMES = Object.values(EARN_PARAM_NAMES);

/** Every version of every earn term, each name's default first and its versions by day. */
export async function rateHistory(db: Db, config: Config, today: string): Promise<RateHistoryData> {
  const rows = await db
    .selectFrom('params')
    .select(['name', 'value', sql<string>`effective_day::text`.as('effective_day'), 'created_at'])
    .where('name', 'in', NAMES)
    .orderBy('name')
    .orderBy('effective_day')
    .execute();
  const items: RateVersion[] = [];
  for (const [key, name] of Object.entries(EARN_PARAM_NAMES) as [keyof Config['earn'], string][]) {
    const versions = rows.filter((r) => r.name === name);
    const inForce = versions.filter((v) => v.effective_day <= today).at(-1)?.effective_day ?? null;
    items.push({ name, value: config.earn[key], effectiveDay: null, scheduledAt: null, status: inForce ? 'past' : 'in_force' });
    for (const v of versions) {
      const status = v.effective_day > today ? 'upcoming' : v.effective_day === inForce ? 'in_force' : 'past';
      items.push({ name, value: v.value, effectiveDay: v.effective_day, scheduledAt: v.created_at.toISOString(), status });
    }
  }
  return { today, noticeDays: config.paramNoticeDays, items };
}

/** The soonest announced change to a product's terms, if any. */
export function upcomingFor(history: RateHistoryData, product: Product): UpcomingChange {
  const terms: readonly string[] = PRODUCT_TERMS[product];
  const next = history.items
    .filter((v) => v.status === 'upcoming' && terms.includes(v.name))
    .sort((a, b) => String(a.effectiveDay).localeCompare(String(b.effectiveDay)))[0];
  return next?.effectiveDay ? { name: next.name, value: next.value, effectiveDay: next.effectiveDay } : null;
}
