import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { ERRORS } from '../../contract/errors.ts';

/** How often a shed call is sent again before its refusal stands. */
const SHED_TRIES = 5;

/**
 * Calls the API as a signed-in user (GET, or POST with a JSON body and a fresh
 * Idempotency-Key) and returns the envelope's data; a refusal throws with its code. A call the
 * server shed (503, SERVER_BUSY: on a busy machine, while the embedded database settles days in
 * the server's own thread) is sent again after its Retry-After with the same key, as the web app
 * does.
 */
export async function callApi<T>(baseUrl: string, path: string, token: string, body?: object): Promise<T> {
  const key = randomUUID();
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${baseUrl}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body ? { 'Content-Type': 'application/json', 'Idempotency-Key': key } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const envelope = (await response.json()) as { code: number; msg: string; data: T };
    if (envelope.code === ERRORS.SERVER_BUSY.code && attempt < SHED_TRIES) {
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1_000));
      continue;
    }
    if (envelope.code !== 0) throw new Error(`${path} refused: ${envelope.code} ${envelope.msg}`);
    return envelope.data;
  }
}

/** The Idempotency-Key of every POST the page sends to a path ending in `suffix`. */
export function recordPostKeys(page: Page, suffix: string): (string | undefined)[] {
  const keys: (string | undefined)[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith(suffix)) keys.push(request.headers()['idempotency-key']);
  });
  return keys;
}

/** The first call matching `pattern` reaches the server, but its answer is lost on the way back. */
export async function loseFirstAnswer(page: Page, pattern: string): Promise<void> {
  let lost = false;
  await page.route(pattern, async (route) => {
    if (lost) return route.continue();
    lost = true;
    await route.fetch();
    await route.abort('connectionreset');
  });
}
