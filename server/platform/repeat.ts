import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs `work` now and then every `intervalMs`, never two runs at once (a run longer than the
 * interval makes the next tick skip), logging a failure with `failure` and trying again at the
 * next tick. The timer does not keep the process alive. Answers the function that stops it.
 */
export function repeat(intervalMs: number, log: FastifyBaseLogger, failure: string, work: () => Promise<void>): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await work();
    } catch (error) {
      log.error({ err: error }, failure);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  void tick();
  return () => clearInterval(timer);
}
