import { readFileSync } from 'node:fs';
const f = process.argv[2];
const map = JSON.parse(readFileSync(f + '.map', 'utf8'));
const srcs = map.sources.map((s) => s.replace(/.*node_modules\//, ''));
console.log(srcs.join('\n'));
