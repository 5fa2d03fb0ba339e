/**
 * Layering rules (issue 22): the module pass of `npm run depcruise` (run by .ci/run before
 * `npm test`); .dependency-cruiser-folders.cjs is the folder pass. docs/architecture.md,
 * "Layers", says what each rule protects.
 *
 * Type-only imports count as much as value imports. TypeScript files are parsed with swc, which
 * keeps `import type` (TypeScript 7 has no JavaScript API that dependency-cruiser 17 can use);
 * the npm script preloads scripts/depcruise-tsx.mjs so that swc parses .tsx files as TSX.
 */

/** Test code: test files, their shared helpers (server/test/) and the reliability suite's helpers. */
const TEST_CODE = '\\.test\\.tsx?$|^server/(test|reliability)/';

/** Each folder of server/ and the folders it may import (its README's "Imports:" line). */
const FOLDER_IMPORTS = require('./.dependency-cruiser-imports.cjs');

/** One rule per folder: its non-test files import no folder of server/ but those in the table. */
const folderImportRules = Object.entries(FOLDER_IMPORTS).map(([folder, allowed]) => ({
  name: `${folder}-imports-per-readme`,
  severity: 'error',
  comment: `server/${folder}/ imports only ${allowed.join(', ') || 'no folder'} of server/ (server/${folder}/README.md; the table is .dependency-cruiser-imports.cjs).`,
  from: { path: `^server/${folder}/`, pathNot: '\\.test\\.tsx?$' },
  to: { path: '^server/[^/]+/', pathNot: `^server/(${[folder, ...allowed].join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'Every import resolves: one that does not is one the rules below cannot see.',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles between modules, type-only imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'contract-imports-only-contract',
      severity: 'error',
      comment: 'contract/ is shared by the server and the web app: it imports nothing of either.',
      from: { path: '^contract/' },
      to: { path: '^(server|web|e2e|bench|scripts)/' },
    },
    {
      name: 'web-not-to-server',
      severity: 'error',
      comment: 'The web app reaches the server through the API only (web/src/api/client.ts).',
      from: { path: '^web/' },
      to: { path: '^(server|e2e|bench|scripts)/' },
    },
    {
      name: 'server-not-to-web',
      severity: 'error',
      comment:
        'The server imports nothing of the web app (server/http/messages.ts reads its locale files at run time, not by import).',
      from: { path: '^server/' },
      to: { path: '^web/' },
    },
    {
      name: 'production-not-to-test-code',
      severity: 'error',
      comment:
        'Production code (non-test files of server/, web/, contract/) imports no test helper, journey or benchmark.',
      from: { path: '^(server|web|contract)/', pathNot: TEST_CODE },
      to: { path: `^(e2e|bench)/|${TEST_CODE}` },
    },
    {
      name: 'migrations-only-kysely',
      severity: 'error',
      comment:
        'A migration is frozen once released: it imports kysely and server/db/ only, never code that may change.',
      from: { path: '^server/db/migrations/' },
      to: { pathNot: '(^|/)node_modules/kysely/|^server/db/' },
    },
    ...folderImportRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|data)/' },
    parser: 'swc',
    // Resolve packages through their `exports` as Node does (typebox has no `main`).
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
