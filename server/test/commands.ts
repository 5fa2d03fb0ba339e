import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const ROOT = new URL('../..', import.meta.url).pathname;
/** util-linux's runuser lives in sbin, which a non-login PATH may lack. */
const RUNUSER = ['/usr/sbin/runuser', '/sbin/runuser'].find((path) => existsSync(path)) ?? 'runuser';
const asRoot = process.getuid?.() === 0;

type Options = { asPg?: boolean; env?: Record<string, string> };

/**
 * The backup tests' commands, run from the project's root: with `asPg`, as `pgUser` through
 * runuser when the tests run as root (PostgreSQL and pgBackRest refuse root), otherwise as the
 * tests' own user. `ok` throws with the command's output unless it exits 0.
 */
export function commandsAs(pgUser: string) {
  const run = (command: string, args: string[], options: Options = {}): SpawnSyncReturns<string> => {
    const env = Object.entries(options.env ?? {}).map(([k, v]) => `${k}=${v}`);
    const withEnv = env.length ? ['env', ...env, command, ...args] : [command, ...args];
    const [program, ...rest] = options.asPg && asRoot ? [RUNUSER, '-u', pgUser, '--', ...withEnv] : withEnv;
    return spawnSync(program as string, rest, { encoding: 'utf8', cwd: ROOT });
  };
  const ok = (command: string, args: string[], options: Options = {}): string => {
    const result = run(command, args, options);
    if (result.status !== 0) {
      throw new Error(`${command} ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}${result.error ?? ''}`);
    }
    return result.stdout;
  };
  return { run, ok, asRoot };
}
