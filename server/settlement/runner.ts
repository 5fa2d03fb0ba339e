/**
 * Runs a day's declared steps: each starts once the steps it waits for have finished, at most
 * `connections` at a time, the earlier declared first when several are ready. Each step's time is
 * kept by name. When one fails, the runner waits for those running and throws the first failure,
 * so nothing of the day runs on after it answers.
 */
export type Step<Name extends string, State> = {
  name: Name;
  /** The steps it waits for: what it reads that they write. */
  after: readonly Name[];
  /** What it reads and writes, for the reader; the runner does not use it. */
  touches: string;
  /** Whether it runs at all, decided when it is ready (a day waiting for funds is not proven). */
  when?: (state: State) => boolean;
  run: (state: State) => Promise<unknown>;
};

export async function runSteps<Name extends string, State>(
  steps: readonly Step<Name, State>[],
  state: State,
  connections: number,
): Promise<Record<string, number>> {
  checkDeclared(steps);
  const times: Record<string, number> = {};
  const finished = new Set<Name>();
  const started = new Set<Name>();
  const running = new Map<Name, Promise<unknown>>();
  const failures: unknown[] = [];

  const start = (step: Step<Name, State>) => {
    started.add(step.name);
    const begun = performance.now();
    const runs = !step.when || step.when(state);
    const work = (runs ? step.run(state) : Promise.resolve())
      .catch((error: unknown) => {
        failures.push(error);
      })
      .finally(() => {
        if (runs) times[step.name] = Math.round(performance.now() - begun);
        finished.add(step.name);
        running.delete(step.name);
      });
    running.set(step.name, work);
  };

  for (;;) {
    if (failures.length === 0) {
      for (const step of steps) {
        if (running.size >= connections) break;
        if (!started.has(step.name) && step.after.every((name) => finished.has(name))) start(step);
      }
    }
    if (running.size === 0) break;
    await Promise.race(running.values());
  }
  if (failures.length) throw failures[0];
  return times;
}

/** Every name once, and every step waits only for steps declared before it (so none waits forever). */
function checkDeclared<Name extends string, State>(steps: readonly Step<Name, State>[]): void {
  const seen = new Set<Name>();
  for (const step of steps) {
    if (seen.has(step.name)) throw new Error(`step ${step.name} is declared twice`);
    const unknown = step.after.filter((name) => !seen.has(name));
    if (unknown.length) throw new Error(`step ${step.name} waits for ${unknown.join(', ')}, not declared before it`);
    seen.add(step.name);
  }
}
