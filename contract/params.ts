import { DAILY_RATE_PARAMS, productOf } from './products.ts';
import { TEAM_RULE_NAMES, type TeamRules, teamRuleKey, teamRuleProblem } from './teamRules.ts';

/**
 * The parameters an operator may schedule, each declared once: its stored name, its label
 * (under operator.params.names in the locale files), how its value is written and shown
 * (`kind`), an example for the console's empty field, and whether a change needs the notice
 * period (PARAM_NOTICE_DAYS; the price follows the market and does not). The console, its
 * checks, the rate history and the notices read this list; the configured defaults are the
 * server's (server/operator/console.ts paramDefaults).
 *
 * Kinds: `rate` a decimal fraction shown as a percentage; `amount` AIC; `price` USD per AIC;
 * `factor` a plain decimal; `integer` whole days; `day` a date; `teamRule` a team rule's text
 * (contract/teamRules.ts checks it).
 */
type ParamKind = 'rate' | 'amount' | 'price' | 'factor' | 'integer' | 'day' | 'teamRule';
export type ParamDefinition = { name: string; label: string; kind: ParamKind; example: string; notice: boolean };

const TEAM_RULE_EXAMPLES: Record<keyof TeamRules, string> = {
  rebateRates: '0.10,0.05,0.03,0.02,0.01',
  levelThresholds: '1000,10000,50000,200000,1000000',
  effectiveMinimum: '10',
  unlockTiers: '10000:0.5,5000:0.3',
  lockupDays: '10',
};

const param = (name: string, label: string, kind: ParamKind, example: string): ParamDefinition => ({ name, label, kind, example, notice: true });

export const PARAMS: readonly ParamDefinition[] = [
  { name: 'price.aic_usd', label: 'price', kind: 'price', example: '0.85', notice: false },
  ...DAILY_RATE_PARAMS.map(({ product, name }) => param(name, `${product}Rate`, 'rate', productOf(product).defaultDailyRate ?? '0.002')),
  param('earn.daily_quota', 'dailyQuota', 'amount', '10000'),
  param('earn.minimum', 'minimum', 'amount', '1'),
  param('earn.360.multiplier', 'multiplier', 'integer', '5'),
  param('earn.360.coefficient_base', 'coefficientBase', 'factor', '1.02'),
  param('earn.360.launch_day', 'launchDay', 'day', '2026-11-01'),
  param('earn.360.coefficient_max_days', 'coefficientMaxDays', 'integer', '360'),
  param('earn.360.pool_output_rate', 'poolOutputRate', 'rate', '0.01'),
  param('earn.360.max_daily_rate', 'poolMaxDailyRate', 'rate', '0.005'),
  ...(Object.entries(TEAM_RULE_NAMES) as [keyof TeamRules, string][]).map(([key, name]) => param(name, key, 'teamRule', TEAM_RULE_EXAMPLES[key])),
];

export const PARAM_NAMES: readonly string[] = PARAMS.map((p) => p.name);

/** A parameter's declaration, or undefined for a name that is none. */
export const paramOf = (name: string): ParamDefinition | undefined => PARAMS.find((p) => p.name === name);

/**
 * Why a value cannot be stored for a parameter, in a few words, or null when it can: the same
 * check in the console (before sending) and on the server (which refuses with PARAM).
 */
export function paramValueProblem(name: string, value: string): string | null {
  const text = value.trim();
  if (!text) return 'a value is required';
  const rule = teamRuleKey(name);
  if (rule) return teamRuleProblem(rule, text);
  switch (paramOf(name)?.kind) {
    case undefined:
      return 'not a parameter';
    case 'day':
      return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) ? null : 'a date, YYYY-MM-DD';
    case 'integer':
      return /^\d{1,6}$/.test(text) ? null : 'a whole number';
    default:
      return /^\d+(\.\d+)?$/.test(text) && text.length <= 40 ? null : 'a plain decimal';
  }
}
