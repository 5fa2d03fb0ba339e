import { describe, expect, it } from 'vitest';
import { checkParamValue, formatParamValue, PARAM_NAMES, paramPlaceholder, paramStates, paramValueItems } from './params.ts';

describe('operator parameters', () => {
  it('checks values before sending', () => {
    expect(checkParamValue('earn.current.daily_rate', ' ')).toBe('operator.params.valueRequired');
    expect(checkParamValue('earn.current.daily_rate', '0.002')).toBeNull();
    expect(checkParamValue('earn.current.daily_rate', '-1')).toBe('operator.params.valueInvalid');
    expect(checkParamValue('earn.current.daily_rate', '1e-3')).toBe('operator.params.valueInvalid');
    expect(checkParamValue('earn.360.launch_day', '2026-11-01')).toBeNull();
    expect(checkParamValue('earn.360.launch_day', '0.5')).toBe('operator.params.dayInvalid');
    expect(checkParamValue('team.rebate_rates', '0.12,0.05')).toBeNull();
    expect(checkParamValue('team.rebate_rates', '0.12;0.05')).toBe('operator.params.formats.rebateRates');
    expect(checkParamValue('team.rebate_rates', '1.5')).toBe('operator.params.formats.rebateRates');
    expect(checkParamValue('team.level_thresholds', '1000,500')).toBe('operator.params.formats.levelThresholds');
    expect(checkParamValue('team.unlock_tiers', '10000:0.5,5000:0.3')).toBeNull();
    expect(checkParamValue('team.unlock_tiers', '10000=0.5')).toBe('operator.params.formats.unlockTiers');
    expect(checkParamValue('team.lockup_days', '7')).toBeNull();
    expect(checkParamValue('team.lockup_days', '7.5')).toBe('operator.params.formats.lockupDays');
  });

  // Without a chosen language the format is the default one's, zh-CN (1,000.5 and 2026/11/01).
  it('shows rates as percentages and other values as figures, list by list', () => {
    expect(formatParamValue('earn.fixed30.daily_rate', '0.0035')).toBe('0.35%');
    expect(formatParamValue('earn.360.pool_output_rate', '0.01')).toBe('1%');
    expect(formatParamValue('earn.360.max_daily_rate', '0.005')).toBe('0.5%');
    expect(paramValueItems('team.rebate_rates', '0.10,0.05')).toEqual(['10%', '5%']);
    expect(paramValueItems('team.level_thresholds', '1000,10000')).toEqual(['1,000', '10,000']);
    expect(paramValueItems('team.unlock_tiers', '10000:0.5,5000:0.3')).toEqual(['10,000: 50%', '5,000: 30%']);
    expect(formatParamValue('earn.daily_quota', '10000')).toBe('10,000');
    expect(formatParamValue('earn.360.launch_day', '2026-11-01')).toBe('2026/11/01');
    // Anything not a plain decimal is shown as it came.
    expect(formatParamValue('earn.minimum', 'soon')).toBe('soon');
  });

  it('tells the version in force from the scheduled ones', () => {
    const items = [
      { name: 'price.aic_usd', value: '0.95', effectiveDay: '2026-11-20' },
      { name: 'price.aic_usd', value: '0.9', effectiveDay: '2026-11-12' },
      { name: 'price.aic_usd', value: '0.8', effectiveDay: '2026-11-01' },
      { name: 'price.aic_usd', value: '0.85', effectiveDay: '2026-11-10' },
    ];
    const [price, ...rest] = paramStates(items, '2026-11-10');
    expect(price?.current?.value).toBe('0.85');
    expect(price?.scheduled.map((v) => v.value)).toEqual(['0.9', '0.95']);
    expect(rest).toHaveLength(PARAM_NAMES.length - 1);
    expect(rest.every((p) => p.current === null && p.scheduled.length === 0)).toBe(true);
  });

  it('says the value in force: the version of today, else the configured default', () => {
    const items = [{ name: 'price.aic_usd', value: '0.9', effectiveDay: '2026-11-12' }];
    const defaults = { 'price.aic_usd': '0.85', 'earn.current.daily_rate': '0.002' };
    const states = paramStates(items, '2026-11-10', defaults);
    expect(states.find((p) => p.name === 'price.aic_usd')).toMatchObject({ current: null, inForce: '0.85' });
    expect(states.find((p) => p.name === 'earn.current.daily_rate')?.inForce).toBe('0.002');
    expect(states.find((p) => p.name === 'earn.minimum')?.inForce).toBeNull();
    expect(paramStates(items, '2026-11-12', defaults)[0]).toMatchObject({ inForce: '0.9', current: { effectiveDay: '2026-11-12' } });
  });

  it('fills the empty field with the value in force, else an example of its own kind', () => {
    expect(paramPlaceholder('price.aic_usd', '0.91')).toBe('0.91');
    const examples = PARAM_NAMES.map((name) => paramPlaceholder(name));
    expect(paramPlaceholder('price.aic_usd')).not.toBe(paramPlaceholder('earn.current.daily_rate'));
    expect(paramPlaceholder('earn.360.launch_day')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(examples.every((example, i) => checkParamValue(PARAM_NAMES[i] as string, example) === null)).toBe(true);
  });
});
