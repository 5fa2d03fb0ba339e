// Runs before `npm test` (npm's pretest): finds the programs the tests drive besides Node and
// PostgreSQL, and installs the missing ones from Debian when it can (as root, with apt-get).
// Otherwise it stops with one line saying what to install, so `npm install && npm test` is all
// a new contributor types.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** What the tests need, how to tell it is here, and Debian's packages that bring it. */
const NEEDS = [
  {
    what: `Chromium for the browser journeys (${chromium})`,
    here: () => existsSync(chromium),
    // The fonts render every language's screenshots (CJK, Thai, Devanagari).
    packages: ['chromium', 'fonts-noto-core', 'fonts-noto-cjk'],
    otherwise: 'or set CHROMIUM_PATH to a Chromium or Chrome binary',
  },
  {
    what: 'PgBouncer for the journey through a transaction pooler',
    here: () => ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].some((path) => existsSync(path)) || onPath('pgbouncer'),
    packages: ['pgbouncer'],
  },
  {
    what: 'nginx (with the brotli modules) for the deployment journey behind a proxy',
    here: () =>
      ['/usr/sbin/nginx', '/usr/bin/nginx'].some((path) => existsSync(path)) &&
      existsSync('/usr/lib/nginx/modules/ngx_http_brotli_filter_module.so'),
    packages: ['nginx-light', 'libnginx-mod-http-brotli-filter', 'libnginx-mod-http-brotli-static'],
  },
  {
    what: "promtool (Prometheus) for the alerting rules' tests",
    here: () => onPath('promtool'),
    packages: ['prometheus'],
  },
  {
    what: "systemd-analyze for the units' sandbox and syntax checks (systemd need not be running)",
    here: () => onPath('systemd-analyze'),
    packages: ['systemd'],
  },
  {
    what: 'Patroni, etcd and HAProxy for the database failover test (a cluster on loopback)',
    here: () => onPath('patroni') && onPath('etcd') && onPath('haproxy'),
    packages: ['patroni', 'etcd-server', 'haproxy'],
  },
  {
    what: "pgBackRest for the PostgreSQL backups' test and the restore drill",
    here: () => onPath('pgbackrest'),
    packages: ['pgbackrest'],
  },
];

const missing = NEEDS.filter((need) => !need.here());
if (missing.length > 0) {
  const packages = missing.flatMap((need) => need.packages);
  const asRoot = process.getuid?.() === 0 && onPath('apt-get');
  if (!asRoot) {
    for (const need of missing) {
      console.error(
        `npm test needs ${need.what}: sudo apt-get install -y ${need.packages.join(' ')}${need.otherwise ? `, ${need.otherwise}` : ''}`,
      );
    }
    process.exit(1);
  }
  console.log(`installing for the tests: ${packages.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: ['ignore', 'ignore', 'inherit'], env });
  const still = NEEDS.filter((need) => !need.here());
  if (still.length > 0) {
    console.error(`still missing after apt-get: ${still.map((need) => need.what).join('; ')}`);
    process.exit(1);
  }
}
