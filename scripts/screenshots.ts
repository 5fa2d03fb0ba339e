/**
 * Screenshots of the running app at phone size, for looking at what was built:
 *   npx tsx scripts/screenshots.ts http://localhost:3000 out-dir zh-cn en ...
 * Each language key is stored as the app stores it, then home is captured.
 */
import { mkdirSync } from 'node:fs';
import { launchBrowser, phonePage } from '../e2e/support/browser.ts';

const [baseUrl = 'http://localhost:3000', outDir = '/tmp/shots', ...languages] = process.argv.slice(2);
const hash = process.env.SHOT_HASH ?? '#/home';
mkdirSync(outDir, { recursive: true });
const browser = await launchBrowser();
for (const language of languages.length ? languages : ['zh-cn', 'en']) {
  const { page } = await phonePage(browser);
  await page.goto(`${baseUrl}/?lang=${encodeURIComponent(language)}${hash}`);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(400);
  const file = `${outDir}/${hash.replace(/[^a-z]/gi, '') || 'home'}-${language}.png`;
  await page.screenshot({ path: file });
  console.log(file);
  await page.context().close();
}
await browser.close();
