import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = import.meta.dirname;
const FOLDER_IMPORTS = createRequire(import.meta.url)('../.dependency-cruiser-imports.cjs') as Record<
  string,
  string[]
>;
const FOLDERS = readdirSync(SERVER, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/**
 * The folders of server/ named in a README's "**Imports:**" sentence, as bare words: file names in
 * backticks and asides in parentheses say which part of a folder, not another folder.
 */
function importsLineFolders(readme: string, folders: readonly string[]): string[] {
  const start = readme.indexOf('**Imports:**');
  if (start < 0) return [];
  let text = readme.slice(start + '**Imports:**'.length).replace(/`[^`]*`/g, '');
  for (let before = ''; before !== text; ) {
    before = text;
    text = text.replace(/\([^()]*\)/g, '');
  }
  const sentence = text.split(/\.(?:\s|$)/)[0] ?? '';
  const words = new Set(sentence.match(/[a-z]+/g) ?? []);
  return folders.filter((folder) => words.has(folder));
}

describe("each README's Imports line", () => {
  it('parses the folders named, not those in file names or asides', () => {
    const readme = '**Imports:** auth (`guard.ts`, not team), db, `http/x.ts`, contract/, and `server/config.ts`. Not team.';
    expect(importsLineFolders(readme, ['auth', 'db', 'http', 'team'])).toEqual(['auth', 'db']);
  });

  it('names a rule for every folder of server/, and every rule a folder', () => {
    expect(Object.keys(FOLDER_IMPORTS).sort()).toEqual(FOLDERS);
  });

  it.each(FOLDERS)("server/%s/README.md names what depcruise's table lets it import", (folder) => {
    const readme = readFileSync(join(SERVER, folder, 'README.md'), 'utf8');
    expect(readme).toContain('**Imports:**');
    expect(importsLineFolders(readme, FOLDERS)).toEqual([...(FOLDER_IMPORTS[folder] ?? [])].sort());
  });
});
