// Runs after `npm install` (npm's postinstall). npm leaves out an optional package whose engines
// the Node running npm does not meet, even when the scripts will run on another: on Debian 12's
// Node 18 it skips rolldown's native part (it wants Node 20.19 or later), and the web build then
// fails. The scripts run on the project's Node 24 (the `node` package), so what was skipped for
// that reason alone is installed here, at the locked version, with npm on Node 24.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

// npm says which Node it ran on ("npm/9.9.4 node/v18.20.8 linux x64 ..."); on Node 24 itself
// nothing was left out for this reason, and nothing is done.
const npmNode = /\bnode\/v(\S+)/.exec(process.env.npm_config_user_agent ?? '')?.[1];
const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
const libc = process.report?.getReport().header.glibcVersionRuntime ? 'glibc' : 'musl';
const fits = (list, value) => !list || list.includes(value);
// An older npm rewrites the lock without the libc field: the package's name says it then.
const fitsLibc = (path, entry) => (entry.libc ? entry.libc.includes(libc) : !path.endsWith(libc === 'glibc' ? '-musl' : '-gnu'));

/** Native parts for this machine (named by os and cpu) that the lock lists and the install lacks. */
const missing = Object.entries(lock.packages ?? {}).filter(
  ([path, entry]) =>
    path.startsWith('node_modules/') &&
    entry.optional &&
    (entry.os || entry.cpu) &&
    fits(entry.os, process.platform) &&
    fits(entry.cpu, process.arch) &&
    fitsLibc(path, entry) &&
    !existsSync(new URL(`../${path}`, import.meta.url)),
);

if (npmNode && npmNode !== process.versions.node && missing.length > 0 && process.env.npm_execpath) {
  const specs = missing.map(([path, entry]) => `${path.slice(path.lastIndexOf('node_modules/') + 13)}@${entry.version}`);
  console.log(`installing on Node ${process.versions.node} what npm on an older Node left out: ${specs.join(' ')}`);
  execFileSync(process.execPath, [process.env.npm_execpath, 'install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', ...specs], {
    stdio: 'inherit',
  });
}
