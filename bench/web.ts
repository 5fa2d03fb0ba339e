/**
 * Web benchmark: the home route's JavaScript, gzipped (scripts/home-weight.mjs), and Lighthouse
 * mobile performance of home, centre and wallet served by the real server on embedded PGlite, signed in
 * (a visitor without a session is sent on to the exchange's sign-in, which is not the home page).
 *   npx tsx bench/web.ts
 * Uses dist/web when it is fresher than its sources, otherwise builds into a temporary folder
 * (never into dist/web). Lighthouse is fetched by npx at run time (BENCH_LIGHTHOUSE, default
 * lighthouse@13, the major for Node 22 and later) and drives CHROME_PATH (default
 * /usr/bin/chromium), started by Playwright with the session's cookies and handed to Lighthouse by
 * its debugging port. If Lighthouse cannot be fetched or run, the reason is printed instead.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { signInOverHttp } from '../e2e/support/httpSignIn.ts';
import { freePort, type RunningServer, startServer } from '../e2e/support/server.ts';
import { type Figure, int, report } from './report.ts';

const run = promisify(execFile);
const WEIGHT_GOAL_KB = 110;
const SCORE_GOAL = 95;
/** Lighthouse runs per screen (BENCH_WEB_RUNS, default 3): each screen's median is its figure. */
const RUNS = Math.max(1, Number(process.env.BENCH_WEB_RUNS ?? 3));
const LIGHTHOUSE = process.env.BENCH_LIGHTHOUSE ?? 'lighthouse@13';
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const fig = (figure: string, value: string, goal?: { goal: string; met: boolean }): Figure => ({
  benchmark: 'web',
  figure,
  value,
  ...goal,
});

/** dist/web when fresh (scripts/build-if-stale.mjs --check), else a build into `temp`. */
async function webBuild(temp: string): Promise<{ dir: string; note: string }> {
  const fresh = await run(process.execPath, ['scripts/build-if-stale.mjs', '--check']).then(() => true, () => false);
  if (fresh) return { dir: 'dist/web', note: 'dist/web (fresh)' };
  const dir = join(temp, 'web');
  const started = performance.now();
  await run('npx', ['vite', 'build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn']);
  return { dir, note: `built into a temp folder in ${((performance.now() - started) / 1000).toFixed(0)} s` };
}

/** Runs scripts/home-weight.mjs on the build and reads its total. */
async function homeWeight(dir: string): Promise<Figure> {
  const { stdout } = await run(process.execPath, ['scripts/home-weight.mjs', dir]);
  console.log(stdout.trimEnd());
  const kb = Number(/([\d.]+) KB\s+home route JavaScript/.exec(stdout)?.[1]);
  return fig('home route JavaScript, gzipped', `${kb.toFixed(1)} KB`, {
    goal: `<= ${WEIGHT_GOAL_KB} KB`,
    met: kb <= WEIGHT_GOAL_KB,
  });
}

type Audit = {
  title: string;
  numericValue?: number;
  details?: { type?: string; overallSavingsMs?: number; items?: { url?: string; total?: number; scripting?: number }[] };
};
type LighthouseResult = {
  lighthouseVersion: string;
  finalDisplayedUrl: string;
  runtimeError?: { message: string };
  environment?: { benchmarkIndex?: number };
  runWarnings?: string[];
  categories: { performance?: { score: number | null } };
  audits: Record<string, Audit | undefined>;
};

const LCP_GOAL_MS = 2000;
const CLS_GOAL = 0.05;
/** The screens measured, signed in: the first one a holder sees and the two they use most. */
const SCREENS = [
  { name: 'home', hash: '' },
  { name: 'centre', hash: '#/center' },
  { name: 'wallet', hash: '#/wallet' },
];

/** The first page element (a node with its HTML snippet) anywhere in an audit's details. */
function firstSnippet(details: unknown): string | undefined {
  if (!details || typeof details !== 'object') return undefined;
  const node = details as { type?: unknown; snippet?: unknown };
  if (node.type === 'node' && typeof node.snippet === 'string') return node.snippet;
  for (const value of Object.values(details)) {
    const found = firstSnippet(value);
    if (found) return found;
  }
  return undefined;
}

/** What one Lighthouse run measured on a screen. */
type Run = { score: number; fcp: number; lcp: number; tbt: number; cls: number; benchmarkIndex: number };

/** One Lighthouse run on `url` through the browser at `port`: what it measured, or why it did not run. */
async function audit(name: string, url: string, port: number, output: string): Promise<Run | string> {
  const args = [
    '--yes', LIGHTHOUSE, url, '--output=json', `--output-path=${output}`, '--quiet',
    `--port=${port}`, '--disable-storage-reset',
    // BENCH_KEEP=1: the trace too (<screen>-0.trace.json), to see what each long task ran.
    ...(process.env.BENCH_KEEP ? ['--save-assets'] : []),
  ];
  try {
    await run('npx', args, { env: { ...process.env, CHROME_PATH: CHROME }, timeout: 600_000, maxBuffer: 64 * 2 ** 20 });
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n').slice(0, 3).join(' ') : String(error);
    console.log(`lighthouse could not run on ${name}: ${why}`);
    return `not run: ${why.slice(0, 200)}`;
  }
  const result = JSON.parse(readFileSync(output, 'utf8')) as LighthouseResult;
  if (result.runtimeError) return `failed: ${result.runtimeError.message}`;
  printDiagnostics(name, result);
  const value = (id: string) => result.audits[id]?.numericValue ?? Number.NaN;
  return {
    score: Math.round((result.categories.performance?.score ?? 0) * 100),
    fcp: value('first-contentful-paint'),
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    benchmarkIndex: result.environment?.benchmarkIndex ?? Number.NaN,
  };
}

/** Where a run's time went: Lighthouse's opportunities, the scripts' time, the LCP element. */
function printDiagnostics(name: string, result: LighthouseResult) {
  const opportunities = Object.values(result.audits)
    .filter((a): a is Audit => (a?.details?.overallSavingsMs ?? 0) > 0)
    .sort((a, b) => (b.details?.overallSavingsMs ?? 0) - (a.details?.overallSavingsMs ?? 0));
  for (const a of opportunities.slice(0, 5)) console.log(`${name}: lighthouse opportunity: ${a.title} (~${int(a.details?.overallSavingsMs ?? 0)} ms)`);
  // Where the main thread's time went: the scripts that took longest to evaluate and run.
  const bootup = result.audits['bootup-time']?.details?.items ?? [];
  for (const item of bootup.slice(0, 4)) {
    console.log(`${name}: script time ${int(item.total ?? 0)} ms (scripting ${int(item.scripting ?? 0)}) ${item.url?.replace(/^https?:\/\/[^/]+/, '')}`);
  }
  // Lighthouse 12 names the element in an audit of its own, 13 in its LCP breakdown insight.
  const lcpAudit = result.audits['largest-contentful-paint-element'] ?? result.audits['lcp-breakdown-insight'];
  const snippet = firstSnippet(lcpAudit?.details);
  if (snippet) console.log(`${name}: LCP element ${snippet.slice(0, 120)}`);
  console.log(`${name}: lighthouse measured ${result.finalDisplayedUrl}`);
  for (const warning of result.runWarnings ?? []) console.log(`${name}: lighthouse warning: ${warning.split('\n')[0]}`);
}

/**
 * A screen's figures from its runs: the median run by score (its FCP, LCP, TBT and CLS are that
 * run's), held to the goals, and every run's score and TBT beside it. Lighthouse's scores move from
 * run to run on a busy machine, and the first run of a fresh browser loads every file cold.
 */
function screenFigures(name: string, runs: (Run | string)[]): Figure[] {
  const done = runs.filter((r): r is Run => typeof r !== 'string');
  if (done.length === 0) return [fig(`${name}: Lighthouse mobile`, String(runs[0] ?? 'no run'))];
  const median = [...done].sort((a, b) => a.score - b.score)[Math.floor((done.length - 1) / 2)] as Run;
  return [
    fig(`${name}: Lighthouse mobile performance, median of ${done.length} runs`, String(median.score), {
      goal: `>= ${SCORE_GOAL}`,
      met: median.score >= SCORE_GOAL,
    }),
    fig(`${name}: each run's score / TBT, in order`, done.map((r) => `${r.score} / ${int(r.tbt)} ms`).join(', ')),
    fig(`${name}: FCP`, `${int(median.fcp)} ms`),
    fig(`${name}: LCP`, `${int(median.lcp)} ms`, { goal: `< ${int(LCP_GOAL_MS)} ms`, met: median.lcp < LCP_GOAL_MS }),
    fig(`${name}: TBT`, `${int(median.tbt)} ms`),
    fig(`${name}: CLS`, median.cls.toFixed(3), { goal: `< ${CLS_GOAL}`, met: median.cls < CLS_GOAL }),
    // Lighthouse's measure of this machine's CPU: its 4x slowdown is meant for a desktop of
    // 1,500-2,000 (docs/throttling.md in Lighthouse); a busier host scores lower.
    fig(`${name}: Lighthouse benchmarkIndex of this machine`, String(Math.round(median.benchmarkIndex))),
  ];
}

/**
 * Lighthouse (mobile, the default form factor) on each screen, signed in: Chromium starts with
 * the app's session cookies, and Lighthouse drives it by its debugging port without resetting
 * storage.
 */
async function lighthouse(baseUrl: string, temp: string): Promise<Figure[]> {
  const { token, userId } = await signInOverHttp(baseUrl, { name: 'Lighthouse' });
  const port = await freePort();
  const browser = await chromium.launchPersistentContext(join(temp, 'chromium'), {
    executablePath: CHROME,
    viewport: null,
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', `--remote-debugging-port=${port}`],
  });
  const expires = Math.floor(Date.now() / 1000) + 86_400;
  await browser.addCookies(
    Object.entries({ token, userId }).map(([key, value]) => ({
      name: `aic_earn_${key}`,
      value: encodeURIComponent(value),
      url: baseUrl,
      expires,
    })),
  );
  try {
    // Round by round (home, centre, wallet, then again), so no screen is always the cold first one.
    const runs = new Map(SCREENS.map((screen) => [screen.name, [] as (Run | string)[]]));
    for (let round = 0; round < RUNS; round++) {
      for (const screen of SCREENS) {
        const output = join(temp, `${screen.name}-${round}.json`);
        const url = `${baseUrl}/${screen.hash}`;
        let result = await audit(screen.name, url, port, output);
        // Lighthouse now and then records no navigation start (NO_NAVSTART) on a hash address:
        // a run that did not measure is run once more rather than left out of the median.
        if (typeof result === 'string') result = await audit(screen.name, url, port, output);
        runs.get(screen.name)?.push(result);
      }
    }
    return SCREENS.flatMap((screen) => screenFigures(screen.name, runs.get(screen.name) ?? []));
  } finally {
    await browser.close();
  }
}

const temp = mkdtempSync(join(tmpdir(), 'bench-web-'));
let server: RunningServer | undefined;
try {
  const loadAtStart = loadavg()[0]?.toFixed(2);
  const build = await webBuild(temp);
  const figures = [await homeWeight(build.dir)];
  server = await startServer({ WEB_DIR: build.dir, SETTLEMENT_INTERVAL_MS: '0' });
  figures.push(...(await lighthouse(server.baseUrl, temp)));
  figures.push(fig('load average (1 min) at start / end', `${loadAtStart} / ${loadavg()[0]?.toFixed(2)}`));
  report(`Web: home route weight and Lighthouse on home, centre and wallet (build: ${build.note})`, figures);
} finally {
  await server?.stop();
  // BENCH_KEEP=1 keeps Lighthouse's reports (<screen>.json) and traces to read its long tasks and insights.
  if (process.env.BENCH_KEEP) console.log(`reports kept in ${temp}`);
  else rmSync(temp, { recursive: true, force: true });
}
