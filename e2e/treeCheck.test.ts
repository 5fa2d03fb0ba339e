import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../contract/paths.ts';
import { OperatorPage } from './pages/OperatorPage.ts';
import { callApi } from './support/api.ts';
import { phonePage } from './support/browser.ts';
import { signInThroughExchange } from './support/flows.ts';
import { signInOverHttp } from './support/httpSignIn.ts';
import { journey } from './support/journey.ts';
import type { RunningServer } from './support/server.ts';

const PG = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const SHOTS = process.env.SCREENSHOT_DIR;

/**
 * A referral cycle left in the books (as concurrent binds could leave one before the fix) is
 * red in the operator's ledger check with its members, and an operator unbinds one of them.
 */
describe('referral tree check in the operator console at 390x844', () => {
  const schema = `tree_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG });
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create schema ${schema}`);
  });
  journey(
    { OPERATOR_USER_IDS: '1', DATABASE_URL: `${PG}?options=${encodeURIComponent(`-c search_path=${schema}`)}` },
    (run) => ({ server, browser } = run),
  );
  afterAll(async () => {
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  it('shows a planted cycle with its members, and an unbind makes the tree sound again', async () => {
    const olga = await phonePage(browser, 'en-US');
    await signInThroughExchange(olga.page, server.baseUrl, { create: 'Olga' });
    const [hana, ivo, jon] = [
      await signInOverHttp(server.baseUrl, { name: 'Hana' }),
      await signInOverHttp(server.baseUrl, { name: 'Ivo' }),
      await signInOverHttp(server.baseUrl, { name: 'Jon' }),
    ];
    const codeOf = async (token: string) => (await callApi<{ inviteCode: string }>(server.baseUrl, PATHS.userInfo, token)).inviteCode;
    await callApi(server.baseUrl, PATHS.bindInviter, ivo.token, { inviteCode: await codeOf(hana.token) });
    await callApi(server.baseUrl, PATHS.bindInviter, jon.token, { inviteCode: await codeOf(ivo.token) });
    // Hana under Jon closes Hana > Jon > Ivo > Hana, stored as the old race stored it.
    await admin.query(`update ${schema}.users set inviter_id = $1, path = array[$2::bigint, $1::bigint] where id = $3`, [jon.userId, ivo.userId, hana.userId]);

    const desk = new OperatorPage(olga.page, server.baseUrl);
    await desk.goto();
    await desk.openTab('Ledger');
    const tree = olga.page.getByTestId('tree-check');
    await tree.getByText('The referral tree has problems').waitFor();
    expect(await desk.verdict.textContent()).toContain('The books balance, but the referral tree has problems');
    const cycle = `Cycle: ${[hana.userId, jon.userId, ivo.userId].join(' → ')}`;
    await tree.getByText(cycle).waitFor();
    if (SHOTS) {
      await olga.page.screenshot({ path: `${SHOTS}/tree-cycle-390.png`, fullPage: true });
      await olga.page.setViewportSize({ width: 320, height: 568 });
      await olga.page.screenshot({ path: `${SHOTS}/tree-cycle-320.png`, fullPage: true });
      await olga.page.setViewportSize({ width: 390, height: 844 });
    }

    await tree.getByRole('button', { name: `Unbind ${hana.userId}`, exact: true }).click();
    expect(await desk.confirmDialog.textContent()).toContain(`Unbind holder ${hana.userId} from their inviter?`);
    await desk.confirm();
    await desk.done();
    await tree.getByText('Every path matches its inviter').waitFor();
    expect(await tree.getByText(cycle).count()).toBe(0);
    const { rows } = await admin.query(`select path::text from ${schema}.users where id = $1`, [jon.userId]);
    expect(rows[0].path).toBe(`{${hana.userId},${ivo.userId}}`);
    expect(olga.errors).toEqual([]);
  });
});
