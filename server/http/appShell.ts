import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { chooseLanguage, LANGUAGE_COOKIE, LANGUAGES } from '../../contract/languages.ts';

/** The build's map of source files to the files it wrote (vite `build.manifest`). */
type ViteManifest = Record<string, { file: string }>;

/** Browser language tags of an Accept-Language header, the most wanted first. */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}

/** One cookie's value from a Cookie header, or null. */
function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of header?.split(';') ?? []) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) {
      try {
        return decodeURIComponent(value.join('='));
      } catch {
        return null;
      }
    }
  }
  return null;
}

/**
 * The app's page for one visitor: `<html lang>` in the language the app will choose (the same
 * rule, `chooseLanguage`, on the stored choice and the browser's languages) and that language's
 * messages preloaded beside the app's scripts, so the first paint does not wait for the scripts
 * to run before it asks for them. Without the build's manifest the page is served as built.
 */
function appShell(webRoot: string, demo: boolean): (cookie: string | undefined, acceptLanguage: string | undefined) => string {
  const html = readFileSync(resolve(webRoot, 'index.html'), 'utf8');
  const manifestPath = resolve(webRoot, '.vite/manifest.json');
  const manifest: ViteManifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : {};
  const pages = new Map(
    LANGUAGES.map((language) => {
      const file = manifest[`src/i18n/locales/${language.messages}.json`]?.file;
      const preload = file ? `<link rel="modulepreload" crossorigin href="/${file}">\n  ` : '';
      // DEMO=true: every screen says it is a demo (web/src/app/Layout.tsx).
      const attributes = `lang="${language.htmlLang}"${demo ? ' data-demo="true"' : ''}`;
      const page = html.replace(/<html lang="[^"]*">/, `<html ${attributes}>`).replace('</head>', `${preload}</head>`);
      return [language.key, page] as const;
    }),
  );
  return (cookie, acceptLanguage) => {
    const key = chooseLanguage(cookieValue(cookie, LANGUAGE_COOKIE), acceptedLanguages(acceptLanguage));
    return pages.get(key) ?? html;
  };
}

/** Serves the app's page at / and /index.html (the static files are served beside it). */
export function appShellRoutes(app: FastifyInstance, webRoot: string, demo: boolean): void {
  const page = appShell(webRoot, demo);
  const send = async (request: FastifyRequest, reply: FastifyReply) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      // Asked again on every visit (a new release names new files), and differs by language.
      .header('cache-control', 'no-cache')
      .header('vary', 'Cookie, Accept-Language')
      .send(page(request.headers.cookie, request.headers['accept-language']));
  app.get('/', { schema: { hide: true } }, send);
  app.get('/index.html', { schema: { hide: true } }, send);
}
