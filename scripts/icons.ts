/**
 * Renders the app's icons (web/public/icon-*.png) from web/public/icon.svg with Chromium, for
 * the web app manifest and iOS. Run it after changing the SVG:  npx tsx scripts/icons.ts
 * The maskable icon keeps the mark inside the middle 80 %, the zone every launcher shows.
 */
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const svg = readFileSync('web/public/icon.svg', 'utf8');
const ICONS = [
  { file: 'icon-192.png', size: 192, inset: 0 },
  { file: 'icon-512.png', size: 512, inset: 0 },
  { file: 'icon-maskable-512.png', size: 512, inset: 0.1 },
  { file: 'apple-touch-icon.png', size: 180, inset: 0 },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const { file, size, inset } of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const pad = Math.round(size * inset);
    // The maskable one fills the square with the background: the launcher cuts its own shape.
    await page.setContent(
      `<body style="margin:0;${inset ? "background:#0b1f3a" : ""}"><div style="padding:${pad}px;width:${size - 2 * pad}px;height:${size - 2 * pad}px">${svg.replace('<svg ', `<svg width="${size - 2 * pad}" height="${size - 2 * pad}" `)}</div></body>`,
    );
    await page.screenshot({ path: `web/public/${file}`, omitBackground: inset === 0 });
    await page.close();
  }
} finally {
  await browser.close();
}
