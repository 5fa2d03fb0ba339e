#!/usr/bin/env node
// Merges new messages into the locale files, so that several people (or helper sessions)
// adding keys at once do not overwrite each other's work.
//
//   node scripts/i18n-add.mjs additions.json
//
// additions.json: { "en": { "proof": { "title": "Proof" } }, "zh-cn": { ... }, ... }, one
// entry per locale file name. Nested objects merge; an existing string is replaced.
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../web/src/i18n/locales/', import.meta.url));
const lock = `${dir}.lock`;

const merge = (into, from) => {
  for (const [key, value] of Object.entries(from)) {
    if (value && typeof value === 'object') {
      if (typeof into[key] !== 'object' || into[key] === null) into[key] = {};
      merge(into[key], value);
    } else into[key] = value;
  }
  return into;
};

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function withLock(fn) {
  for (let tries = 0; ; tries++) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (tries > 200) throw new Error(`locale files locked (${lock}); remove it if stale`);
      sleep(50);
    }
  }
  try {
    fn();
  } finally {
    rmdirSync(lock);
  }
}

const additions = JSON.parse(readFileSync(process.argv[2], 'utf8'));
withLock(() => {
  for (const [file, messages] of Object.entries(additions)) {
    const path = `${dir}${file}.json`;
    const current = JSON.parse(readFileSync(path, 'utf8'));
    writeFileSync(path, `${JSON.stringify(merge(current, messages), null, 2)}\n`);
  }
});
console.log(`merged into ${Object.keys(additions).join(', ')}`);
