import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';

/** Every call of spec section 7, plus the calls the product adds for them. */
const SPEC_CALLS = [
  ['get', '/api/home'],
  ['get', '/api/authorPage'],
  ['get', '/api/login'],
  ['get', '/api/product/info'],
  ['get', '/api/user/invite-records'],
  ['get', '/api/user/product-list'],
  ['get', '/api/user/product'],
  ['get', '/api/user/reward-log'],
  ['get', '/api/user/my-product-list'],
  ['get', '/api/user/user-log'],
  ['get', '/api/user/zero-profit'],
  ['get', '/api/user/zero-log'],
  ['get', '/api/getAsset'],
  ['get', '/api/transferPage'],
  ['get', '/api/transfer-records'],
  ['post', '/api/product/buy'],
  ['post', '/api/user/redeem-regular'],
  ['post', '/api/user/redeem-current'],
  ['post', '/api/user/receive'],
  ['post', '/api/user/receive-profit'],
  ['post', '/api/user/one-rebuy'],
  ['post', '/api/user/cancel-rebuy'],
  ['post', '/api/withdraw'],
] as const;

describe('OpenAPI at /docs/json', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(async () => {
    await t.close();
  });

  it('documents every call of the spec with its answers', async () => {
    const doc = (await t.app.inject({ url: '/docs/json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const [method, path] of SPEC_CALLS) {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.responses['200'], `${method} ${path}`).toBeDefined();
      expect(operation.responses['4XX'] ?? operation.responses['4xx'], `${method} ${path} errors`).toBeDefined();
    }
  });

  it('passes Redocly’s recommended rules, with no warning', async () => {
    const doc = (await t.app.inject({ url: '/docs/json' })).json();
    const problems = await redoclyProblems(doc);
    expect(problems).toEqual([]);
    // What generated clients rely on: every operation named, once; public calls ask for no token.
    const operations = Object.values(doc.paths as Record<string, Record<string, { operationId: string; security?: unknown[] }>>).flatMap(Object.values);
    expect(new Set(operations.map((o) => o.operationId)).size).toBe(operations.length);
    expect(doc.paths['/api/home'].get.operationId).toBe('home');
    expect(doc.paths['/api/home'].get.security).toEqual([]);
    expect(doc.paths['/api/getAsset'].get.security).toEqual([{ bearer: [] }]);
  });

  it('serves the docs page', async () => {
    const page = await t.app.inject({ url: '/docs/' });
    expect([200, 302]).toContain(page.statusCode);
  });
});

const ROOT = resolve(import.meta.dirname, '../..');
/** The pinned CLI (package.json devDependencies), run by the Node running the tests; resolved as a module so knip sees it used. */
const REDOCLY = fileURLToPath(import.meta.resolve('@redocly/cli/bin/cli.js'));

/** Redocly's findings on `doc` under redocly.yaml (its recommended rules): rule, message, where. */
async function redoclyProblems(doc: unknown): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(doc));
    // Lint exits 1 on any error; the JSON report is written either way.
    const run = promisify(execFile)(process.execPath, [REDOCLY, 'lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format=json'], {
      cwd: dir,
      // No network: no usage report, no update check.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse((await run).stdout) as { problems: { ruleId: string; message: string; location: { pointer: string }[] }[] };
    return report.problems.map((p) => `${p.ruleId}: ${p.message} (${p.location.map((l) => l.pointer).join(', ')})`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
