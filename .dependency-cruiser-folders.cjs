/**
 * Folder-level cycles among the domains of server/: the second pass of `npm run depcruise`.
 * A folder cycle needs no module cycle (team/a.ts -> settlement/b.ts while settlement/c.ts ->
 * team/d.ts), so the module pass (.dependency-cruiser.cjs) does not see it.
 *
 * Production code only: test code may reach across folders (server/db/*.test.ts uses the
 * harness in server/test/, which uses db); the module pass checks it.
 */
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const base = require('./.dependency-cruiser.cjs');

const testCode = base.forbidden.find((rule) => rule.name === 'production-not-to-test-code').from.pathNot;

// The one cycle left (issue 22): server/team/settle.ts imports settlement's payIncome.ts and
// moveWithinUsers.ts, a team -> settlement edge against settlement -> team and
// settlement -> earn -> team. Those two files are moving to server/ledger; until they have,
// team/settle.ts's own imports are left out of this pass. The exception ends by itself.
const pendingMove = existsSync(join(__dirname, 'server/settlement/payIncome.ts'));
if (pendingMove) {
  console.warn(
    'depcruise: folder pass leaves out server/team/settle.ts while server/settlement/payIncome.ts exists (issue 22)',
  );
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular-domain-folders',
      severity: 'error',
      comment:
        'No cycles among the folders of server/: a domain that imports another is not imported back by it, not even through other files or folders.',
      scope: 'folder',
      from: { path: '^server/[^/]+$' },
      to: { path: '^server/[^/]+$', circular: true },
    },
  ],
  options: {
    ...base.options,
    exclude: {
      path: [base.options.exclude.path, testCode, ...(pendingMove ? ['^server/team/settle\\.ts$'] : [])].join('|'),
    },
  },
};
