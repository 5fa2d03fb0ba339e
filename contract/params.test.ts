import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PARAM_NAMES, PARAMS, paramValueProblem } from './params.ts';

const LOCALES = new URL('../web/src/i18n/locales/', import.meta.url);
const locales = readdirSync(LOCALES).filter((file) => file.endsWith('.json'));

describe('the parameter registry', () => {
  it('names each parameter once, and every locale labels it', () => {
    expect(new Set(PARAM_NAMES).size).toBe(PARAM_NAMES.length);
    for (const file of locales) {
      const names = JSON.parse(readFileSync(new URL(file, LOCALES), 'utf8')).operator.params.names as Record<string, string>;
      for (const { label } of PARAMS) expect(names[label], `${file}: ${label}`).toBeTruthy();
    }
  });

  it('accepts its own examples and refuses what each kind cannot store', () => {
    for (const { name, example } of PARAMS) expect(paramValueProblem(name, example), name).toBeNull();
    expect(paramValueProblem('earn.360.max_daily_rate', '0.5%')).toBe('a plain decimal');
    expect(paramValueProblem('earn.360.multiplier', '5.5')).toBe('a whole number');
    expect(paramValueProblem('earn.360.launch_day', '2026-02-30x')).toBe('a date, YYYY-MM-DD');
    expect(paramValueProblem('team.lockup_days', 'ten')).toBe('whole days, 0 to 9999');
    expect(paramValueProblem('earn.unknown', '1')).toBe('not a parameter');
    expect(paramValueProblem('price.aic_usd', '  ')).toBe('a value is required');
  });

  it('lets only the price change without notice', () => {
    expect(PARAMS.filter((p) => !p.notice).map((p) => p.name)).toEqual(['price.aic_usd']);
  });
});
