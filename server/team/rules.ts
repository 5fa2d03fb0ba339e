import { sql, type Transaction } from 'kysely';
import { parseTeamRules, TEAM_RULE_NAMES, type TeamRuleName, type TeamRules, teamRuleTexts } from '../../contract/teamRules.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { perOwner, shortLived } from '../platform/cache.ts';
import { seedFirstVersion } from '../platform/params.ts';

/**
 * The team rules in force on a day: for each rule, its newest version effective on or before
 * the day; a rule never stored (a database the server has not started on) falls back to the
 * configured first version.
 */
export async function teamRules(db: Db | Transaction<Database>, first: TeamRules, day: string): Promise<TeamRules> {
  const rows = await db
    .selectFrom('params')
    .select(['name', 'value'])
    .distinctOn('name')
    .where('name', 'like', 'team.%')
    .where('effective_day', '<=', sql<string>`${day}::date`)
    .orderBy('name')
    .orderBy('effective_day', 'desc')
    .execute();
  const texts = teamRuleTexts(first);
  for (const [key, name] of Object.entries(TEAM_RULE_NAMES) as [keyof TeamRules, string][]) {
    const row = rows.find((r) => r.name === name);
    if (row) texts[key] = row.value;
  }
  return parseTeamRules(texts);
}

/** At start-up: the configured rules become their first stored version, where none exists. */
export async function seedTeamRules(db: Db, first: TeamRules, at: Date): Promise<void> {
  const texts = teamRuleTexts(first);
  for (const [key, name] of Object.entries(TEAM_RULE_NAMES) as [keyof TeamRules, TeamRuleName][]) {
    await seedFirstVersion(db, name, texts[key], at);
  }
}

const inForceOf = perOwner((ctx: AppContext) =>
  shortLived(ctx.config.paramsCacheMs, (day: string) => teamRules(ctx.db, ctx.config.team, day)),
);

/** The rules in force on a day, from a per-process copy at most PARAMS_CACHE_MS old (reads only). */
export function teamRulesInForce(ctx: AppContext, day: string): Promise<TeamRules> {
  return inForceOf(ctx)(day);
}
