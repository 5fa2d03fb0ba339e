import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompress } from './scripts/precompress.ts';
import { serviceWorker } from './scripts/serviceWorker.ts';

export default defineConfig({
  root: 'web',
  resolve: {
    alias: { 'use-sync-external-store/shim': fileURLToPath(new URL('./web/src/lib/syncExternalStore.ts', import.meta.url)) },
  },
  plugins: [react(), serviceWorker(), precompress()],
  build: {
    outDir: '../dist/web',
    // Which file holds which language's messages: the server preloads the visitor's (appShell.ts).
    manifest: true,
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
    // One stylesheet for every screen, in the page's head (10 KB gzipped, 4.9 KB for home alone):
    // a lazy screen appended its components' sheets (up to seventeen for the centre) in the
    // render that reveals it, each append and style recalculation in that one long task. The
    // order of the rules is the one the split sheets had (the app's own after the library's
    // global rules, each component's after them), so nothing looks different.
    cssCodeSplit: false,
    modulePreload: {
      // A lazy chunk's scripts come by the browser's own module loading (each module fetched and
      // compiled in a task of its own) rather than as <link rel=modulepreload> elements the
      // preload helper appends all at once: on a warm cache each append fetched and compiled its
      // module inside that call, and a screen's forty made one long task of the screen's first
      // render (220 ms at 4x CPU on the centre). Stylesheets it would keep (there are none with
      // cssCodeSplit off). The page's own modulepreload links (hostType html) stay.
      resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : deps.filter((dep) => dep.endsWith('.css'))),
    },
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The libraries every screen starts with (React, the router, i18next) in one chunk of
          // their own: left to itself, the bundler puts React in a chunk it shares with what the
          // lazy pages have in common (antd-mobile's Toast and its animation library), which the
          // home route then downloads before its first paint, and splits the rest into chunks
          // that compress worse apart. The chunk also stays cached when only the app changes.
          groups: [
            { name: 'framework', test: /node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next)[\\/]/ },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000', '/oidc': 'http://localhost:3000' } },
});
