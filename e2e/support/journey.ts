import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { launchBrowser } from './browser.ts';
import { type RunningServer, startServer } from './server.ts';
import { troubleIn } from './serverLog.ts';

/**
 * For a describe block: starts the real server (with `env`) and Chromium before its tests,
 * hands both over, and stops them after; prints the server's log when a test fails.
 */
export function journey(env: Record<string, string>, started: (run: { server: RunningServer; browser: Browser }) => void) {
  let run: { server: RunningServer; browser: Browser } | undefined;
  beforeAll(async () => {
    // At info, the log names each call and each refusal (troubleIn reads them).
    const server = await startServer({ LOG_LEVEL: 'info', ...env });
    run = { server, browser: await launchBrowser() };
    started(run);
  });
  // A journey that fails prints what its server refused or complained of: which call was
  // refused, and why, is otherwise lost with the server's process.
  beforeEach(({ onTestFailed }) => {
    onTestFailed(() => {
      const trouble = troubleIn(run?.server.logs() ?? '');
      if (trouble.length) console.error(`what the server refused or logged (the last 40):\n${trouble.slice(-40).join('\n')}`);
    });
  });
  afterAll(async () => {
    await run?.browser.close();
    await run?.server.stop();
  });
}
