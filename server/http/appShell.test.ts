import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../contract/languages.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { acceptedLanguages } from './appShell.ts';

/** A build as vite writes it: the page, one script, and the manifest naming each language's file. */
function fakeBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'aic-shell-'));
  mkdirSync(join(dir, 'assets'));
  mkdirSync(join(dir, '.vite'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html>\n<html lang="zh-CN">\n  <head>\n    <title>AIC Earn</title>\n  </head>\n  <body></body>\n</html>\n');
  writeFileSync(join(dir, 'assets', 'index-abc.js'), 'export {};\n');
  const manifest = Object.fromEntries(
    [...new Set(LANGUAGES.map((l) => l.messages))].map((m) => [`src/i18n/locales/${m}.json`, { file: `assets/${m}-hash.js` }]),
  );
  writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

describe('acceptedLanguages', () => {
  it('orders by weight, keeps the header order between equals, drops q=0 and *', () => {
    expect(acceptedLanguages('fr;q=1, ja;q=0.5, en;q=0.8')).toEqual(['fr', 'en', 'ja']);
    expect(acceptedLanguages('ko-KR,ko;q=0.9,*;q=0.1,th;q=0')).toEqual(['ko-KR', 'ko']);
    expect(acceptedLanguages('vi, id')).toEqual(['vi', 'id']);
    expect(acceptedLanguages(undefined)).toEqual([]);
    expect(acceptedLanguages('en;q=abc, hi')).toEqual(['hi']);
  });
});

describe('the app page in the visitor language', () => {
  let t: TestApp;
  let web: string;
  beforeAll(async () => {
    web = fakeBuild();
    t = await startTestApp('pglite', { config: { webDir: web } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(web, { recursive: true, force: true });
  });

  const page = (headers: Record<string, string>, url = '/') => t.app.inject({ method: 'GET', url, headers });

  it('names the language of the browser and preloads its messages', async () => {
    const answer = await page({ 'accept-language': 'ko-KR,ko;q=0.9,en;q=0.8' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.headers.vary).toBe('Cookie, Accept-Language');
    expect(answer.body).toContain('<html lang="ko">');
    expect(answer.body).toContain('<link rel="modulepreload" crossorigin href="/assets/Korean-hash.js">');
    expect(answer.body.match(/modulepreload/g)).toHaveLength(1);
  });

  it('follows the language the holder chose over the browser, as the app does', async () => {
    const answer = await page({ cookie: 'aic_earn_token=x; aic_earn_lang=Thai', 'accept-language': 'ko' }, '/index.html');
    expect(answer.body).toContain('<html lang="th">');
    expect(answer.body).toContain('href="/assets/Thai-hash.js"');
    // Malaysian reads the English messages, under its own tag.
    const malay = await page({ cookie: 'aic_earn_lang=Malaysian' });
    expect(malay.body).toContain('<html lang="ms">');
    expect(malay.body).toContain('href="/assets/en-hash.js"');
  });

  it('falls back to simplified Chinese, and ignores a language it does not have', async () => {
    const visitors: Record<string, string>[] = [{}, { 'accept-language': 'fr-FR,de;q=0.5' }, { cookie: 'aic_earn_lang=%E0%A4' }];
    for (const headers of visitors) {
      const answer = await page(headers);
      expect(answer.body).toContain('<html lang="zh-CN">');
      expect(answer.body).toContain('href="/assets/zh-cn-hash.js"');
    }
  });

  it('marks no page as a demo unless DEMO=true', async () => {
    expect((await page({})).body).not.toContain('data-demo');
    const demo = await startTestApp('pglite', { config: { webDir: web, demo: true } });
    try {
      const answer = await demo.app.inject({ method: 'GET', url: '/', headers: { 'accept-language': 'ja' } });
      expect(answer.body).toContain('<html lang="ja" data-demo="true">');
    } finally {
      await demo.close();
    }
  });

  it('still serves the built files, and not the manifest', async () => {
    const script = await page({}, '/assets/index-abc.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['cache-control']).toContain('immutable');
    expect((await page({}, '/.vite/manifest.json')).statusCode).toBe(404);
  });
});
