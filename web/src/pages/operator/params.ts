import { PARAM_NAMES, type ParamBody } from '../../../../contract/operator.ts';
import { teamRuleKey, teamRuleProblem } from '../../../../contract/teamRules.ts';
import type { ParamVersion } from '../../api/operator.ts';
import { EMPTY, formatDay, formatFigure, formatRate } from '../../lib/format.ts';

export { paramLabelKey } from '../../../../contract/labels.ts';

export type ParamName = ParamBody['name'];
export { PARAM_NAMES };

/** The launch day is a date; every other parameter is a plain non-negative decimal. */
export const isDayParam = (name: string): boolean => name === 'earn.360.launch_day';

/**
 * What the empty New value field shows: the parameter's own value in force, or (before it is
 * known) an example of its own kind: a price for the price, a daily rate for a rate, a day for a day.
 */
export function paramPlaceholder(name: ParamName, inForce?: string | null): string {
  if (inForce) return inForce;
  if (isDayParam(name)) return '2026-11-01';
  return TEAM_RULE_EXAMPLES[teamRuleKey(name) ?? 'none'] ?? EARN_EXAMPLES[name] ?? (name.endsWith('.daily_rate') ? '0.002' : '1');
}

const TEAM_RULE_EXAMPLES: Record<string, string> = {
  rebateRates: '0.10,0.05,0.03,0.02,0.01',
  levelThresholds: '1000,10000,50000,200000,1000000',
  effectiveMinimum: '10',
  unlockTiers: '10000:0.5,5000:0.3',
  lockupDays: '10',
};

const EARN_EXAMPLES: Record<string, string> = {
  'price.aic_usd': '0.85',
  'earn.daily_quota': '10000',
  'earn.minimum': '1',
  'earn.360.multiplier': '5',
  'earn.360.coefficient_base': '1.02',
  'earn.360.coefficient_max_days': '360',
  'earn.360.pool_output_rate': '0.01',
  'earn.360.max_daily_rate': '0.005',
};

/** Parameters stored as decimal fractions (daily rates, the pool's output rate): shown as percentages. */
const isRateParam = (name: string): boolean => name.endsWith('_rate');

/** A stored item in the reader's format; one that is not a plain decimal as it is. */
const shownOr = (format: (value: string) => string) => (item: string) => {
  const shown = format(item);
  return shown === EMPTY ? item : shown;
};

/**
 * A parameter's stored value as holders and operators read it, item by item (team rules are
 * lists): rates as percentages, days and other figures in the language's format.
 */
export function paramValueItems(name: string, value: string): string[] {
  const items = value.split(',').map((item) => item.trim());
  const rule = teamRuleKey(name);
  if (rule === 'unlockTiers') {
    return items.map((item) => {
      const [holding = '', share = ''] = item.split(':');
      return `${shownOr(formatFigure)(holding)}: ${shownOr(formatRate)(share)}`;
    });
  }
  if (rule === 'rebateRates' || isRateParam(name)) return items.map(shownOr(formatRate));
  if (isDayParam(name)) return items.map(formatDay);
  return items.map(shownOr(formatFigure));
}

/** The same as one text, for messages. */
export const formatParamValue = (name: string, value: string): string => paramValueItems(name, value).join(', ');

/** What the server would refuse, checked first: the message key, or null when the value is fine. */
export function checkParamValue(name: ParamName, value: string): string | null {
  const text = value.trim();
  if (!text) return 'operator.params.valueRequired';
  const rule = teamRuleKey(name);
  if (rule) return teamRuleProblem(rule, text) ? `operator.params.formats.${rule}` : null;
  if (isDayParam(name)) return /^\d{4}-\d{2}-\d{2}$/.test(text) ? null : 'operator.params.dayInvalid';
  return /^\d+(\.\d+)?$/.test(text) && text.length <= 40 ? null : 'operator.params.valueInvalid';
}

export type ParamState = {
  name: string;
  /** The stored version in force today; null while the configured default applies. */
  current: ParamVersion | null;
  /** The value in force today: the current version's, else the configured default (null if unknown). */
  inForce: string | null;
  scheduled: ParamVersion[];
};

/**
 * For every parameter: the version in force today (the latest from today or before), the value
 * in force (that version's or the configured default) and the versions scheduled after today,
 * soonest first. Known names first in their order, then others.
 */
export function paramStates(items: readonly ParamVersion[], today: string, defaults: Readonly<Record<string, string>> = {}): ParamState[] {
  const names = [...PARAM_NAMES, ...new Set(items.map((i) => i.name).filter((n) => !PARAM_NAMES.includes(n)))];
  return names.map((name) => {
    const versions = items.filter((i) => i.name === name);
    const current = versions
      .filter((v) => v.effectiveDay <= today)
      .reduce<ParamVersion | null>((best, v) => (!best || v.effectiveDay > best.effectiveDay ? v : best), null);
    const scheduled = versions.filter((v) => v.effectiveDay > today).sort((a, b) => a.effectiveDay.localeCompare(b.effectiveDay));
    const inForce = current?.value ?? (Object.hasOwn(defaults, name) ? (defaults[name] ?? null) : null);
    return { name, current, inForce, scheduled };
  });
}
