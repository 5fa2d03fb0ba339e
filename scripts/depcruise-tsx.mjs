/**
 * Preloaded by `npm run depcruise` (`node --import`). dependency-cruiser 17 parses TypeScript
 * either with the typescript package's JavaScript API, which TypeScript 7 no longer has, or
 * with swc (`parser: 'swc'` in .dependency-cruiser.cjs), but it never asks swc for TSX, so
 * every .tsx file fails to parse. This points dependency-cruiser's import of `@swc/core` at a
 * wrapper that parses .tsx files as TSX and everything else as before. (dependency-cruiser 18
 * does this itself, but needs Node 22.)
 */
import { register } from 'node:module';

register('./depcruise-tsx-hooks.mjs', import.meta.url);
