import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LANGUAGE, LANGUAGES, type LanguageKey, isLanguageKey } from '../../contract/languages.ts';

/**
 * The server speaks the same messages as the app: it reads the web app's locale files, so an
 * envelope's msg is in the caller's language (header X-Lang) and there is one text per key.
 */
type Tree = { [key: string]: string | Tree };

const localesDir = fileURLToPath(new URL('../../web/src/i18n/locales/', import.meta.url));
const cache = new Map<string, Tree>();

function load(file: string): Tree {
  let tree = cache.get(file);
  if (!tree) {
    tree = JSON.parse(readFileSync(`${localesDir}${file}.json`, 'utf8')) as Tree;
    cache.set(file, tree);
  }
  return tree;
}

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function messageLanguage(header: unknown): LanguageKey {
  return isLanguageKey(header) ? header : 'en';
}

export function translate(key: string, language: LanguageKey): string {
  const file = LANGUAGES.find((l) => l.key === language)?.messages ?? DEFAULT_LANGUAGE;
  return lookup(load(file), key) ?? lookup(load('en'), key) ?? key;
}
