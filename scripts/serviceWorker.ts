import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';

const TEMPLATE = resolve(import.meta.dirname, 'sw-template.js');
/** Build files a visit may need offline: scripts, styles, fonts, images, the manifest. */
const PRECACHED = /\.(js|css|woff2?|png|svg|webmanifest)$/;

/**
 * Writes /sw.js into the build: the app shell (index.html) and every file of the build that a
 * screen may load, precached, under a version that changes whenever any of them does. The
 * worker itself is scripts/sw-template.js.
 */
export function serviceWorker(): Plugin {
  let publicDir = '';
  return {
    name: 'aic-service-worker',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      publicDir = config.publicDir;
    },
    generateBundle(_options, bundle) {
      const built = Object.keys(bundle).filter((name) => PRECACHED.test(name));
      const copied = publicDir ? readdirSync(publicDir).filter((name) => PRECACHED.test(name)) : [];
      const files = [...built, ...copied].sort();
      const version = createHash('sha256');
      for (const name of built) {
        const item = bundle[name];
        version.update(name).update(item?.type === 'chunk' ? item.code : String(item?.source ?? ''));
      }
      for (const name of copied) version.update(name).update(readFileSync(join(publicDir, name)));
      const html = bundle['index.html'];
      if (html?.type === 'asset') version.update(String(html.source));
      const precache = ['/index.html', ...files.map((name) => `/${name}`)];
      const source = [
        `const VERSION = ${JSON.stringify(version.digest('hex').slice(0, 16))};`,
        `const PRECACHE = ${JSON.stringify(precache)};`,
        readFileSync(TEMPLATE, 'utf8'),
      ].join('\n');
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}
