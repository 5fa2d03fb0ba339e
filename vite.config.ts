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
