import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * For a describe block: starts the real server (with `env`) and Chromium before its tests,
 * hands both over, and stops them after.
 */
export function journey(env: Record<string, string>, started: (run: { server: RunningServer; browser: Browser }) => void) {
  let run: { server: RunningServer; browser: Browser } | undefined;
  beforeAll(async () => {
    const server = await startServer(env);
    run = { server, browser: await launchBrowser() };
    started(run);
  });
  afterAll(async () => {
    await run?.browser.close();
    await run?.server.stop();
  });
}
