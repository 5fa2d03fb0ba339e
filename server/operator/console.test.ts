import { describe, expect, it } from 'vitest';
import { PARAM_NAMES } from '../../contract/params.ts';
import { loadConfig } from '../config.ts';
import { paramDefaults } from './console.ts';

describe('parameter defaults', () => {
  it('come from the configuration for every parameter the registry declares, and for nothing else', () => {
    const defaults = paramDefaults(loadConfig({ POOL_MAX_DAILY_RATE: '0.004' }));
    expect(Object.keys(defaults).sort()).toEqual([...PARAM_NAMES].sort());
    expect(defaults['earn.360.max_daily_rate']).toBe('0.004');
  });
});
