/**
 * Module hooks for scripts/depcruise-tsx.mjs: dependency-cruiser's `@swc/core` is this file's
 * `swc` export; every other import is resolved as usual.
 */
import swcCore from '@swc/core';

/** @type {import('node:module').ResolveHook} */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === '@swc/core' && context.parentURL?.includes('/node_modules/dependency-cruiser/')) {
    return { url: new URL('?swc', import.meta.url).href, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

/** @type {import('node:module').LoadHook} */
export async function load(url, context, nextLoad) {
  if (url === new URL('?swc', import.meta.url).href) {
    const source = `import { swc } from ${JSON.stringify(import.meta.url)}; export default swc;`;
    return { format: 'module', source, shortCircuit: true };
  }
  return nextLoad(url, context);
}

/** @swc/core, parsing .tsx files with TSX on. */
export const swc = {
  ...swcCore,
  parseFileSync: (path, options) =>
    swcCore.parseFileSync(path, { ...options, tsx: String(path).endsWith('.tsx') }),
};
