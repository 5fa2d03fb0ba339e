/**
 * Renders the app's icons (web/public/icon-*.png) from web/public/icon.svg with Chromium, for
 * the web app manifest and iOS, and favicon.ico (what browsers and tools ask for by that name).
 * Run it after changing the SVG:  npx tsx scripts/icons.ts
 * The maskable icon keeps the mark inside the middle 80 %, the zone every launcher shows.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const svg = readFileSync('web/public/icon.svg', 'utf8');
const ICONS = [
  { file: 'icon-192.png', size: 192, inset: 0 },
  { file: 'icon-512.png', size: 512, inset: 0 },
  { file: 'icon-maskable-512.png', size: 512, inset: 0.1 },
  { file: 'apple-touch-icon.png', size: 180, inset: 0 },
  { file: 'favicon.ico', size: 32, inset: 0 },
];

/** An ICO file holding one PNG image (allowed since Windows Vista; every browser reads it). */
function icoOf(png: Buffer, size: number): Buffer {
  const header = Buffer.alloc(22);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // an icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(size, 6);
  header.writeUInt8(size, 7);
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits a pixel
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(22, 18); // where the image starts
  return Buffer.concat([header, png]);
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const { file, size, inset } of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const pad = Math.round(size * inset);
    // The maskable one fills the square with the background: the launcher cuts its own shape.
    await page.setContent(
      `<body style="margin:0;${inset ? "background:#0b1f3a" : ""}"><div style="padding:${pad}px;width:${size - 2 * pad}px;height:${size - 2 * pad}px">${svg.replace('<svg ', `<svg width="${size - 2 * pad}" height="${size - 2 * pad}" `)}</div></body>`,
    );
    const png = await page.screenshot({ omitBackground: inset === 0 });
    writeFileSync(`web/public/${file}`, file.endsWith('.ico') ? icoOf(png, size) : png);
    await page.close();
  }
} finally {
  await browser.close();
}
