import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALL_MESSAGE_KEYS } from '../../../contract/errors.ts';
import { MESSAGE_FILES } from '../../../contract/languages.ts';

type Tree = { [key: string]: string | Tree };
const dir = fileURLToPath(new URL('./locales/', import.meta.url));
const load = (file: string) => JSON.parse(readFileSync(`${dir}${file}.json`, 'utf8')) as Tree;

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const english = flatten(load('en'));
/** Values that are the same in every language: codes, numbers, signs and {{placeholders}}. */
const UNIVERSAL = /^[\sA-Z0-9×.%$/:-]*$/;
const universal = (value: string) => UNIVERSAL.test(value.replace(/\{\{\w+\}\}/g, ''));

describe('locale files', () => {
  it('has one file per language (Malaysian uses English) and nothing else', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.replace('.json', ''));
    expect(files.sort()).toEqual([...MESSAGE_FILES].sort());
  });

  it.each(MESSAGE_FILES)('%s has exactly the English keys, none empty', (file) => {
    const messages = flatten(load(file));
    expect([...messages.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, value] of messages) expect(value.trim(), key).not.toBe('');
  });

  it.each(MESSAGE_FILES.filter((f) => f !== 'en'))('%s leaves nothing in English by accident', (file) => {
    const messages = flatten(load(file));
    const untranslated = [...messages].filter(([key, value]) => value === english.get(key) && !universal(value));
    expect(untranslated).toEqual([]);
  });

  it('has a text for every message of the error catalogue', () => {
    for (const key of ALL_MESSAGE_KEYS) expect(english.has(key), key).toBe(true);
  });
});
