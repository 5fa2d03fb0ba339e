import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const RULES = new URL('../../deploy/prometheus/', import.meta.url).pathname;

/** promtool on the shipped rules: valid, and each alert fires on its series and only there (the .test.yml). */
describe('the alerting rules (deploy/prometheus)', () => {
  const promtool = (...args: string[]) => spawnSync('promtool', args, { cwd: RULES, encoding: 'utf8' });

  it('pass promtool check rules', () => {
    const run = promtool('check', 'rules', 'aic-earn-rules.yml');
    expect(run.error, 'promtool not found: npm test installs prometheus (scripts/test-needs.mjs)').toBeUndefined();
    expect(run.stdout + run.stderr).toContain('SUCCESS');
    expect(run.status).toBe(0);
  });

  it('pass promtool test rules', () => {
    const run = promtool('test', 'rules', 'aic-earn-rules.test.yml');
    expect(run.stdout + run.stderr).toContain('SUCCESS');
    expect(run.status).toBe(0);
  });
});
