import { readFileSync, writeFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { InclusionProof, ProofRootData } from '../contract/proof.ts';
import { HomePage } from './pages/HomePage.ts';
import { MyPage } from './pages/MyPage.ts';
import { ProofPage } from './pages/ProofPage.ts';
import { callApi } from './support/api.ts';
import { phonePage } from './support/browser.ts';
import { signInThroughExchange, storedCookie } from './support/flows.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

const text = async (locator: { textContent: () => Promise<string | null> }) => (await locator.textContent())?.trim() ?? '';
const background = (locator: { evaluate: <R>(fn: (el: Element) => R) => Promise<R> }) =>
  locator.evaluate((el) => getComputedStyle(el).backgroundColor);
const GREEN = 'rgb(8, 122, 86)';
const RED = 'rgb(180, 35, 24)';

describe('proof of liabilities at 390x844', () => {
  let server: RunningServer;
  let browser: Browser;
  journey({ OPERATOR_USER_IDS: '1' }, (run) => ({ server, browser } = run));

  const api = <T>(path: string, token: string, body?: object) => callApi<T>(server.baseUrl, path, token, body);

  it('on a fresh platform, before the first settled day: says when the first proof comes, offers nothing to download or verify', async () => {
    // Nobody signs in here (the next journey's operator must be user 1): a visitor opens the page.
    const { page, errors } = await phonePage(browser, 'en-US');
    const proof = new ProofPage(page, server.baseUrl);
    await proof.goto();
    await proof.empty.waitFor();
    expect(await text(proof.empty)).toBe('No proof has been published yet: the first comes after the first settled day.');
    expect(await text(proof.mine)).toContain('once the first proof is published, after the first settled day');
    expect(await proof.mineButtons.count()).toBe(0);
    expect(await proof.fileCheck.count()).toBe(0);
    expect(await proof.day.count()).toBe(0);
    await page.screenshot({ path: '/tmp/proof-empty.png', fullPage: true });
    expect(errors).toEqual([]);
  });

  it('a holder verifies their proof after the day settles; a tampered proof file shows red with what failed', async () => {
    // The operator (user 1) holds 250 AIC on the platform too, so the holder's leaf has a sibling.
    const operator = await phonePage(browser, 'en-US');
    await signInThroughExchange(operator.page, server.baseUrl, { create: 'Olga' });
    const operatorToken = (await storedCookie(operator.page, 'token')) as string;
    await api('/api/transfer-in', operatorToken, { asset: 'AIC', amount: '250' });

    const { page, errors } = await phonePage(browser, 'en-US');
    await signInThroughExchange(page, server.baseUrl, { create: 'Hana' });
    const holderToken = (await storedCookie(page, 'token')) as string;
    await api('/api/transfer-in', holderToken, { asset: 'AIC', amount: '1000' });
    // Days settle once there are orders: she subscribes 100 of them to the 30-day product.
    const { inviteCode } = await api<{ inviteCode: string }>('/api/user/info', operatorToken);
    await api('/api/user/bind', holderToken, { inviteCode });
    await api('/api/product/buy', holderToken, { product: 'fixed30', amount: '100' });

    // Signed in, before any day has settled: still no proof, and no buttons for one.
    const proof = new ProofPage(page, server.baseUrl);
    await proof.goto();
    await proof.empty.waitFor();
    expect(await text(proof.mine)).toContain('once the first proof is published');
    expect(await proof.mineButtons.count()).toBe(0);
    expect(await proof.fileCheck.count()).toBe(0);
    await page.screenshot({ path: '/tmp/proof-empty-signed-in.png', fullPage: true });

    // The operator moves the clock a day on: yesterday settles and its trees are built.
    const { reports } = await api<{ reports: { day: string; status: string }[] }>('/api/operator/clock/advance', operatorToken, { days: 1 });
    const day = reports.at(-1)?.day as string;
    expect(reports.at(-1)?.status).toBe('done');
    const published = await (await fetch(`${server.baseUrl}/api/proof/root`)).json() as { data: ProofRootData };
    const aic = published.data.roots.find((r) => r.asset === 'AIC');
    expect(aic).toMatchObject({ total: '1250', holders: 2 });

    // Home shows the published root in one line; My leads to the proof screen.
    // The next day she opens the app again.
    await new HomePage(page, server.baseUrl).goto();
    await page.reload();
    await expect.poll(() => text(proof.homeLine)).toBe(`Proof of liabilities: ${day} · 1,250.00 AIC · root ${aic?.root.slice(0, 8)}…${aic?.root.slice(-6)} →`);
    await page.screenshot({ path: '/tmp/proof-home.png', fullPage: true });
    await new MyPage(page, server.baseUrl).goto();
    await proof.myLink.click();
    await proof.heading.waitFor();
    expect(await text(proof.day)).toBe(day);
    expect(await text(proof.root('AIC'))).toBe(aic?.root);
    // Now a proof exists: the empty state is gone, both buttons and the file check are offered.
    expect(await proof.empty.count()).toBe(0);
    expect(await proof.mineButtons.allTextContents()).toEqual(['Download my proof', 'Verify my proof']);
    await proof.fileCheck.waitFor();
    await page.screenshot({ path: '/tmp/proof-published.png', fullPage: true });

    // Verify: computed in the browser against the root fetched on its own.
    await proof.verifyMine();
    const verdict = proof.verdict('mine');
    await verdict.waitFor();
    expect(await text(verdict)).toBe(`Proof verifiedYour balances of 1,000.00 AIC are included in the published total of 1,250.00 AIC for ${day}.`);
    expect(await background(verdict)).toBe(GREEN);
    await page.screenshot({ path: '/tmp/proof-verified.png', fullPage: true });

    // Download the proof, load it back: green. Then tamper with it: red, saying what failed.
    const saved = await proof.download();
    const file = JSON.parse(readFileSync(saved, 'utf8')) as InclusionProof;
    expect(file).toMatchObject({ day, asset: 'AIC', total: '1250', leaf: { sum: '1000' } });
    expect(file.path).toHaveLength(1);
    await proof.loadFile(saved);
    const result = proof.verdict('fileCheck');
    await expect.poll(() => text(result)).toContain('Proof verified');

    const cases: [string, (p: InclusionProof) => void, string][] = [
      ['sibling', (p) => { (p.path[0] as { hash: string }).hash = `${p.path[0]?.hash[0] === 'a' ? 'b' : 'a'}${p.path[0]?.hash.slice(1)}`; }, 'A sibling hash is wrong: the path does not lead to the published root.'],
      ['balance', (p) => { p.leaf.balances.wallet = '1000000'; }, "The leaf's sum is not the sum of its balances."],
      ['sum', (p) => { (p.path[0] as { sum: string }).sum = '1'; }, 'The sums along the path do not add up to the published total.'],
    ];
    for (const [name, change, message] of cases) {
      const tampered = structuredClone(file);
      change(tampered);
      const path = `${saved}-${name}.json`;
      writeFileSync(path, JSON.stringify(tampered));
      await proof.loadFile(path);
      await expect.poll(() => text(result)).toBe(`Proof failed${message}`);
      expect(await background(result)).toBe(RED);
    }
    await page.screenshot({ path: '/tmp/proof-tampered.png', fullPage: true });
    expect(errors).toEqual([]);
  });
});
