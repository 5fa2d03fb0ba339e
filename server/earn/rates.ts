import { sql } from 'kysely';
import { DAILY_RATE_PARAMS, productOf } from '../../contract/products.ts';
import { FIRST_VERSION_DAY, type RateHistoryData, type RateVersion, type UpcomingChange } from '../../contract/rates.ts';
import { TEAM_RULE_NAMES, type TeamRules, teamRuleTexts } from '../../contract/teamRules.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/connect.ts';
import type { Product } from '../db/schema.ts';
import { EARN_PARAM_NAMES } from './params.ts';

/** Each shown term's name and its configured first value: the earn terms, then the team rules. */
function terms(config: Config): [string, string][] {
  const team = teamRuleTexts(config.team);
  return [
    ...DAILY_RATE_PARAMS.map(({ product, name }): [string, string] => [name, config.earn.dailyRates[product] ?? '0']),
    ...(Object.entries(EARN_PARAM_NAMES) as [keyof typeof EARN_PARAM_NAMES, string][]).map(([key, name]): [string, string] => [name, config.earn[key]]),
    ...(Object.entries(TEAM_RULE_NAMES) as [keyof TeamRules, string][]).map(([key, name]): [string, string] => [name, team[key]]),
  ];
}

/**
 * Every version of every earn term and team rule, each name's first value first and its
 * versions by day. The first value is the configured default, or the version seeded from it
 * (stored at FIRST_VERSION_DAY), shown alike: "since launch".
 */
export async function rateHistory(db: Db, config: Config, today: string): Promise<RateHistoryData> {
  const named = terms(config);
  const rows = await db
    .selectFrom('params')
    .select(['name', 'value', sql<string>`effective_day::text`.as('effective_day'), 'created_at'])
    .where('name', 'in', named.map(([name]) => name))
    .orderBy('name')
    .orderBy('effective_day')
    .execute();
  const items: RateVersion[] = [];
  for (const [name, configured] of named) {
    const stored = rows.filter((r) => r.name === name);
    const first = stored[0]?.effective_day === FIRST_VERSION_DAY ? stored[0].value : configured;
    const versions = stored.filter((r) => r.effective_day !== FIRST_VERSION_DAY);
    const inForce = versions.filter((v) => v.effective_day <= today).at(-1)?.effective_day ?? null;
    items.push({ name, value: first, effectiveDay: null, scheduledAt: null, status: inForce ? 'past' : 'in_force' });
    for (const v of versions) {
      const status = v.effective_day > today ? 'upcoming' : v.effective_day === inForce ? 'in_force' : 'past';
      items.push({ name, value: v.value, effectiveDay: v.effective_day, scheduledAt: v.created_at.toISOString(), status });
    }
  }
  return { today, noticeDays: config.paramNoticeDays, items };
}

/** The soonest announced change to a product's terms, if any. */
export function upcomingFor(history: RateHistoryData, product: Product): UpcomingChange {
  const terms = productOf(product).termParams;
  const next = history.items
    .filter((v) => v.status === 'upcoming' && terms.includes(v.name))
    .sort((a, b) => String(a.effectiveDay).localeCompare(String(b.effectiveDay)))[0];
  return next?.effectiveDay ? { name: next.name, value: next.value, effectiveDay: next.effectiveDay } : null;
}
