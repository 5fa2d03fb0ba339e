import { PARAM_NAMES, type ParamBody } from '../../../../contract/operator.ts';
import { paramOf, paramValueProblem } from '../../../../contract/params.ts';
import { teamRuleKey } from '../../../../contract/teamRules.ts';
import type { ParamVersion } from '../../api/operator.ts';
import { EMPTY, formatDay, formatFigure, formatRate } from '../../lib/format.ts';

export { paramLabelKey } from '../../../../contract/labels.ts';

export type ParamName = ParamBody['name'];
export { PARAM_NAMES };

/** Whether a parameter's value is a date (the launch day). */
export const isDayParam = (name: string): boolean => paramOf(name)?.kind === 'day';

/** Parameters stored as decimal fractions (daily rates, the pool's output rate, the cap): shown as percentages. */
const isRateParam = (name: string): boolean => paramOf(name)?.kind === 'rate';

/**
 * What the empty New value field shows: the parameter's own value in force, or (before it is
 * known) its declared example: a price for the price, a daily rate for a rate, a day for a day.
 */
export function paramPlaceholder(name: ParamName, inForce?: string | null): string {
  return inForce || (paramOf(name)?.example ?? '');
}

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
  if (!value.trim()) return 'operator.params.valueRequired';
  if (!paramValueProblem(name, value)) return null;
  const rule = teamRuleKey(name);
  if (rule) return `operator.params.formats.${rule}`;
  return isDayParam(name) ? 'operator.params.dayInvalid' : 'operator.params.valueInvalid';
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
