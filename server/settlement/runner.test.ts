import { describe, expect, it } from 'vitest';
import { runSteps, type Step } from './runner.ts';

type Log = { events: string[]; open: number; most: number; skip: boolean };

/** A step that logs its start and end and yields `ticks` times in between. */
const step = (name: string, after: string[], ticks = 1, extra: Partial<Step<string, Log>> = {}): Step<string, Log> => ({
  name,
  after,
  touches: '',
  run: async (log) => {
    log.events.push(`+${name}`);
    log.open++;
    log.most = Math.max(log.most, log.open);
    for (let i = 0; i < ticks; i++) await new Promise((resolve) => setImmediate(resolve));
    log.open--;
    log.events.push(`-${name}`);
  },
  ...extra,
});
const fresh = (): Log => ({ events: [], open: 0, most: 0, skip: false });

describe('the day runner', () => {
  it('starts a step only after the steps it waits for, at most the given number at once', async () => {
    const log = fresh();
    const steps = [step('a', [], 3), step('b', [], 1), step('c', []), step('d', ['a']), step('e', ['b', 'd'])];
    const times = await runSteps(steps, log, 2);
    const at = (event: string) => log.events.indexOf(event);
    expect(at('+d')).toBeGreaterThan(at('-a'));
    expect(at('+e')).toBeGreaterThan(Math.max(at('-b'), at('-d')));
    // c is ready from the start and waits only for a free connection.
    expect(at('+c')).toBeGreaterThan(at('-b'));
    expect(at('+c')).toBeLessThan(at('+d'));
    expect(log.most).toBe(2);
    expect(Object.keys(times).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('runs independent steps side by side up to the limit', async () => {
    const log = fresh();
    await runSteps([step('a', [], 5), step('b', [], 5), step('c', [], 5)], log, 3);
    expect(log.most).toBe(3);
  });

  it('skips a step whose condition does not hold when it is ready, and its followers still run', async () => {
    const log = fresh();
    const times = await runSteps([step('a', []), step('b', ['a'], 1, { when: (l) => !l.skip }), step('c', ['b'])], { ...log, skip: true }, 2);
    expect(Object.keys(times).sort()).toEqual(['a', 'c']);
  });

  it('starts nothing after a failure, lets the running finish, and throws the failure', async () => {
    const log = fresh();
    const failing: Step<string, Log> = { name: 'bad', after: [], touches: '', run: async () => Promise.reject(new Error('boom')) };
    const steps = [failing, step('slow', [], 5), step('later', ['slow'])];
    await expect(runSteps(steps, log, 2)).rejects.toThrow('boom');
    expect(log.events).toEqual(['+slow', '-slow']);
  });

  it('refuses a step that waits for one declared after it, or a name declared twice', async () => {
    await expect(runSteps([step('a', ['b']), step('b', [])], fresh(), 2)).rejects.toThrow('waits for b');
    await expect(runSteps([step('a', []), step('a', [])], fresh(), 2)).rejects.toThrow('declared twice');
  });
});
