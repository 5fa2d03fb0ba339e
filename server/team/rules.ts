import type { Transaction } from 'kysely';
import { parseTeamRules, TEAM_RULE_NAMES, type TeamRuleName, type TeamRules, teamRuleTexts } from '../../contract/teamRules.ts';
import type { FastifyBaseLogger } from 'fastify';
import { TEAM_RULE_VARIABLES } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { perOwner, shortLived } from '../platform/cache.ts';
import { utcDay } from '../platform/clock.ts';
import { seedFirstVersion, versionsInForce } from '../platform/params.ts';

/**
 * The team rules in force on a day: for each rule, its newest version effective on or before
 * the day; a rule never stored (a database the server has not started on) falls back to the
 * configured first version.
 */
export async function teamRules(db: Db | Transaction<Database>, first: TeamRules, day: string): Promise<TeamRules> {
  const inForce = await versionsInForce(db, Object.values(TEAM_RULE_NAMES), day);
  const texts = teamRuleTexts(first);
  for (const [key, name] of Object.entries(TEAM_RULE_NAMES) as [keyof TeamRules, string][]) {
    const version = inForce.get(name);
    if (version) texts[key] = version.value;
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

/** A rule's text with its numbers written one way (0.10 and 0.1 are the same rate). */
const canonical = (text: string) =>
  text.replace(/\s+/g, '').replace(/\d+(\.\d+)?/g, (number) => (number.includes('.') ? number.replace(/\.?0+$/, '') : number));

/**
 * At start-up: each team rule the environment sets (REBATE_RATES...) that differs from the
 * rule the database has in force today is said in one warning: the environment seeds only a
 * new database's first version, and a change is scheduled from the operator console.
 *
 * A warning, not a refusal: the stored, versioned rules are the ones every settled day was
 * computed with and stay right; refusing would turn a stale line of the env file all processes
 * share into an outage at their next restart, and the console is where a change gets its notice.
 */
export async function warnTeamRulesNotApplied(ctx: AppContext, log: FastifyBaseLogger): Promise<void> {
  if (ctx.config.teamFromEnv.length === 0) return;
  const inForce = teamRuleTexts(await teamRules(ctx.db, ctx.config.team, utcDay(ctx.clock.now())));
  const fromEnv = teamRuleTexts(ctx.config.team);
  for (const key of ctx.config.teamFromEnv) {
    if (canonical(fromEnv[key]) === canonical(inForce[key])) continue;
    const name = TEAM_RULE_VARIABLES[key];
    log.warn(
      `${name}=${fromEnv[key]} is not used: this database has ${inForce[key]} in force (${TEAM_RULE_NAMES[key]}). ` +
        `${name} only seeds a new database; schedule a change from the operator console`,
    );
  }
}
