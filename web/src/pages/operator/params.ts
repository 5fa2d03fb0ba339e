import { PARAM_NAMES, type ParamBody } from '../../../../contract/operator.ts';
import type { ParamVersion } from '../../api/operator.ts';

export type ParamName = ParamBody['name'];
export { PARAM_NAMES };

/** Each parameter's label key under operator.params.names (its name has dots i18next would split). */
export const PARAM_LABELS: Record<ParamName, string> = {
  'price.aic_usd': 'price',
  'earn.current.daily_rate': 'currentRate',
  'earn.fixed30.daily_rate': 'fixed30Rate',
  'earn.daily_quota': 'dailyQuota',
  'earn.minimum': 'minimum',
  'earn.360.multiplier': 'multiplier',
  'earn.360.coefficient_base': 'coefficientBase',
  'earn.360.launch_day': 'launchDay',
  'earn.360.coefficient_max_days': 'coefficientMaxDays',
  'earn.360.pool_output_rate': 'poolOutputRate',
};

export const paramLabelKey = (name: string): string | null =>
  name in PARAM_LABELS ? `operator.params.names.${PARAM_LABELS[name as ParamName]}` : null;

/** The launch day is a date; every other parameter is a plain non-negative decimal. */
export const isDayParam = (name: ParamName): boolean => name === 'earn.360.launch_day';

/** What the server would refuse, checked first: the message key, or null when the value is fine. */
export function checkParamValue(name: ParamName, value: string): string | null {
  const text = value.trim();
  if (!text) return 'operator.params.valueRequired';
  if (isDayParam(name)) return /^\d{4}-\d{2}-\d{2}$/.test(text) ? null : 'operator.params.dayInvalid';
  return /^\d+(\.\d+)?$/.test(text) && text.length <= 40 ? null : 'operator.params.valueInvalid';
}

export type ParamState = { name: string; current: ParamVersion | null; scheduled: ParamVersion[] };

/**
 * For every parameter: the version in force today (the latest from today or before) and the
 * versions scheduled after today, soonest first. Known names first in their order, then others.
 */
export function paramStates(items: readonly ParamVersion[], today: string): ParamState[] {
  const names = [...PARAM_NAMES, ...new Set(items.map((i) => i.name).filter((n) => !(n in PARAM_LABELS)))];
  return names.map((name) => {
    const versions = items.filter((i) => i.name === name);
    const current = versions
      .filter((v) => v.effectiveDay <= today)
      .reduce<ParamVersion | null>((best, v) => (!best || v.effectiveDay > best.effectiveDay ? v : best), null);
    const scheduled = versions.filter((v) => v.effectiveDay > today).sort((a, b) => a.effectiveDay.localeCompare(b.effectiveDay));
    return { name, current, scheduled };
  });
}
