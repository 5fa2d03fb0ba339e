// `npm start` serves the built web app: build it when it is missing or older than its sources.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const built = 'dist/web/index.html';
const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? newest(path) : statSync(path).mtimeMs;
    return Math.max(latest, time);
  }, 0);

const sourcesTime = Math.max(newest('web'), newest('contract'), statSync('vite.config.ts').mtimeMs);
const stale = !existsSync(built) || statSync(built).mtimeMs < sourcesTime;
// `--check`: only tell (exit 1 when stale), build nothing (bench/web.ts uses it).
if (process.argv.includes('--check')) process.exit(stale ? 1 : 0);
if (stale) {
  console.log('building the web app (vite build)...');
  execSync('npx vite build', { stdio: 'inherit' });
}
