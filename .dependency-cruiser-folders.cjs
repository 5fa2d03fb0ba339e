/**
 * Folder-level cycles among the domains of server/: the second pass of `npm run depcruise`.
 * A folder cycle needs no module cycle (team/a.ts -> settlement/b.ts while settlement/c.ts ->
 * team/d.ts), so the module pass (.dependency-cruiser.cjs) does not see it.
 *
 * Production code only: test code may reach across folders (server/db/*.test.ts uses the
 * harness in server/test/, which uses db); the module pass checks it.
 */
const base = require('./.dependency-cruiser.cjs');

const testCode = base.forbidden.find((rule) => rule.name === 'production-not-to-test-code').from.pathNot;

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
      path: [base.options.exclude.path, testCode].join('|'),
    },
  },
};
