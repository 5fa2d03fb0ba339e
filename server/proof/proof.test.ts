import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { buildLevels, CHUNK_BITS, hashLeaf, toHex, verifyProof } from '../../contract/merkle.ts';
import { formatUnits, UNIT } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import type { InclusionProof, ProofRootData } from '../../contract/proof.ts';
import { verifyProofFile } from '../../scripts/verify-proof.ts';
import { checkLedger, SYSTEM } from '../ledger/ledger.ts';
import { ledgerReport } from '../operator/console.ts';
import { DAY_MS, fixedClock } from '../platform/clock.ts';
import { settleDay, settleDue } from '../settlement/settle.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, post, signIn } from '../test/signIn.ts';
import { buildProofs, LEAF_KINDS, nodeSha256, readLeaves, toLeaf } from './build.ts';
import { inclusionProof } from './repository.ts';

const DAY = '2026-11-01';

/** Holders move money in, subscribe and ask to withdraw on 11-01; the day settles; each checks their proof. */
describe.each(DATABASES)('proof of liabilities on %s', (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, bigint> = {};

  beforeAll(async () => {
    t = await startTestApp(kind, { clock: fixedClock(new Date(`${DAY}T08:00:00Z`)) });
    for (const name of ['alice', 'bob', 'carol', 'dan']) {
      const session = await signIn(t.app, { name });
      tokens[name] = session.token;
      ids[name] = BigInt(session.userId);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const as = (who: string, url: string, query: Record<string, string> = {}) =>
    t.app.inject({ url, query, headers: bearer(tokens[who] as string) });
  const published = async (day?: string) =>
    (await t.app.inject({ url: PATHS.proofRoot, query: day ? { day } : {} })).json().data as ProofRootData;
  const mine = async (who: string, query: Record<string, string> = {}) =>
    (await as(who, PATHS.proofMine, query)).json().data as InclusionProof;
  const publishedFor = async (proof: InclusionProof) => {
    const root = (await published(proof.day)).roots.find((r) => r.asset === proof.asset);
    return { day: proof.day, asset: proof.asset, root: root?.root ?? '', total: root?.total ?? '' };
  };
  const check = async (proof: unknown, against: InclusionProof) => verifyProof(proof, await publishedFor(against), nodeSha256);
  const userTotal = async (asset: string) => {
    const { rows } = await sql<{ total: bigint }>`select coalesce(sum(balance), 0)::bigint as total from accounts
      where asset = ${asset} and user_id <> 0 and kind in (${sql.join(LEAF_KINDS)})`.execute(t.ctx.db);
    return rows[0]?.total ?? 0n;
  };

  it('publishes nothing, and has no proof for anyone, before a day is settled', async () => {
    expect(await published()).toEqual({ day: null, builtAt: null, roots: [] });
    const res = await as('alice', PATHS.proofMine);
    expect(res.json().code).toBe(ERRORS.NOT_FOUND.code);
  });

  it('after the day settles, publishes each asset’s root, total and holders, the total being the ledger’s', async () => {
    const move = (who: string, path: string, body: object) => post(t.app, path, tokens[who] as string, body);
    expect((await move('alice', PATHS.transferIn, { asset: 'AIC', amount: '1000' })).json().code).toBe(0);
    expect((await move('alice', PATHS.transferIn, { asset: 'USDT', amount: '100.5' })).json().code).toBe(0);
    expect((await move('bob', PATHS.transferIn, { asset: 'AIC', amount: '500' })).json().code).toBe(0);
    const { inviteCode } = (await as('alice', PATHS.userInfo)).json().data;
    expect((await move('bob', PATHS.bindInviter, { inviteCode })).json().code).toBe(0);
    expect((await move('bob', PATHS.productBuy, { product: 'fixed30', amount: '200' })).json().code).toBe(0);
    expect((await move('carol', PATHS.transferIn, { asset: 'AIC', amount: '300' })).json().code).toBe(0);
    expect((await move('carol', PATHS.withdraw, { asset: 'AIC', amount: '50' })).json().code).toBe(0);
    // dan keeps everything on the exchange: no liability of the platform, no leaf.

    t.ctx.clock.advance(DAY_MS);
    const [report] = await settleDue(t.ctx);
    expect(report).toMatchObject({ day: DAY, status: 'done' });

    const roots = await published();
    expect(roots).toMatchObject({ day: DAY, builtAt: '2026-11-02T08:00:00.000Z' });
    expect(roots.roots.map(({ asset, total, holders }) => ({ asset, total, holders }))).toEqual([
      { asset: 'AIC', total: '1800', holders: 3 },
      { asset: 'USDT', total: '100.5', holders: 1 },
    ]);
    expect(roots.roots[0]?.root).toMatch(/^[0-9a-f]{64}$/);
    expect(await userTotal('AIC')).toBe(1800n * UNIT);
    expect(await userTotal('USDT')).toBe(1005n * (UNIT / 10n));
    expect(await published(DAY)).toEqual(roots);
  });

  it('gives each holder a proof of their own balances that verifies against the published root', async () => {
    const bob = await mine('bob');
    expect(bob).toMatchObject({
      version: 1,
      day: DAY,
      asset: 'AIC',
      total: '1800',
      leaf: {
        userId: String(ids.bob),
        balances: { wallet: '300', earning: '200', rewards: '0', lockedRewards: '0', networkRewards: '0', withdrawalsPending: '0' },
        sum: '500',
      },
    });
    expect(bob.leaf.nonce).toMatch(/^[0-9a-f]{64}$/);
    // Three leaves in a shuffled order: two siblings, or one when bob's leaf is the carried last.
    expect(bob.path.length).toBeGreaterThanOrEqual(1);
    expect(bob.path.length).toBeLessThanOrEqual(2);
    expect(await check(bob, bob)).toEqual({ ok: true, day: DAY, asset: 'AIC', sum: 500n * UNIT, total: 1800n * UNIT });

    const carol = await mine('carol', { asset: 'AIC', day: DAY });
    expect(carol.leaf.balances).toMatchObject({ wallet: '250', withdrawalsPending: '50' });
    expect((await check(carol, carol)).ok).toBe(true);
    const usdt = await mine('alice', { asset: 'USDT' });
    expect(usdt).toMatchObject({ total: '100.5', leaf: { sum: '100.5' }, path: [] });
    expect((await check(usdt, usdt)).ok).toBe(true);
    // Nonces are per holder and secret: no two alike.
    expect(new Set([bob.leaf.nonce, carol.leaf.nonce, usdt.leaf.nonce]).size).toBe(3);
  });

  it('fails a proof with any leaf field, sibling hash, sum or root changed', async () => {
    const bob = await mine('bob');
    const tampered = (change: (p: InclusionProof) => void) => {
      const copy = structuredClone(bob);
      change(copy);
      return copy;
    };
    const last = bob.path.length - 1;
    const flip = (hex: string) => `${hex[0] === 'a' ? 'b' : 'a'}${hex.slice(1)}`;
    const cases: [string, InclusionProof, string][] = [
      ['wallet', tampered((p) => { p.leaf.balances.wallet = '301'; }), 'leafSum'],
      ['wallet and sum', tampered((p) => { p.leaf.balances.wallet = '301'; p.leaf.sum = '501'; }), 'leafHash'],
      ['nonce', tampered((p) => { p.leaf.nonce = flip(p.leaf.nonce); }), 'leafHash'],
      ['user id', tampered((p) => { p.leaf.userId = String(ids.alice); }), 'leafHash'],
      ['sibling hash', tampered((p) => { (p.path[0] as { hash: string }).hash = flip(p.path[0]?.hash ?? ''); }), 'path'],
      ['last sibling hash', tampered((p) => { (p.path[last] as { hash: string }).hash = flip(p.path[last]?.hash ?? ''); }), 'path'],
      ['sibling sum', tampered((p) => { (p.path[last] as { sum: string }).sum = `${p.path[last]?.sum}1`; }), 'total'],
      ['negative sum', tampered((p) => { (p.path[0] as { sum: string }).sum = '-1'; }), 'negative'],
      ['root', tampered((p) => { p.root = flip(p.root); }), 'publishedRoot'],
      ['total', tampered((p) => { p.total = '1799'; }), 'publishedRoot'],
    ];
    for (const [name, proof, failure] of cases) {
      expect(await check(proof, bob), name).toMatchObject({ ok: false, failure });
    }
    const wrongRoot = { ...(await publishedFor(bob)), root: flip((await publishedFor(bob)).root) };
    expect(await verifyProof(bob, wrongRoot, nodeSha256)).toMatchObject({ ok: false, failure: 'path' });
  });

  it('lets a holder fetch only their own proof', async () => {
    const res = await as('bob', PATHS.proofMine, { userId: String(ids.alice) });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(ERRORS.PARAM.code);
    const anonymous = await t.app.inject({ url: PATHS.proofMine });
    expect(anonymous.json().code).toBe(ERRORS.UNAUTHORIZED.code);
    expect((await mine('bob')).leaf.userId).toBe(String(ids.bob));
    expect((await mine('alice')).leaf.userId).toBe(String(ids.alice));
    // dan holds nothing on the platform: no leaf, no proof, nobody else's either.
    expect((await as('dan', PATHS.proofMine)).json().code).toBe(ERRORS.NOT_FOUND.code);
  });

  it('checks a proof file from the command line, against the published root or one given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proof-'));
    const good = join(dir, 'good.json');
    const bad = join(dir, 'bad.json');
    const bob = await mine('bob');
    writeFileSync(good, JSON.stringify(bob));
    writeFileSync(bad, JSON.stringify({ ...bob, path: bob.path.map((s, i) => (i === 0 ? { ...s, sum: '1' } : s)) }));
    const viaApp: typeof fetch = async (url) => {
      const res = await t.app.inject({ url: String(url).replace('http://app', '') });
      return new Response(res.body, { status: res.statusCode });
    };
    const options = { baseUrl: 'http://app', fetch: viaApp };
    expect(await verifyProofFile(good, options)).toMatchObject({ ok: true, message: expect.stringMatching(/^OK: 500 AIC .* total 1800 AIC/) });
    expect(await verifyProofFile(bad, options)).toEqual({ ok: false, message: 'FAILED: the sums along the path do not add up to the published total' });
    expect((await verifyProofFile(good, { ...options, root: bob.root })).ok).toBe(true);
    expect((await verifyProofFile(good, { ...options, root: '0'.repeat(64) })).ok).toBe(false);
  });

  it('reports the latest totals in the operator’s ledger check, equal to the ledger sums', async () => {
    const report = await ledgerReport(t.ctx);
    expect(report.ok).toBe(true);
    expect(report.proofs).toEqual([
      { asset: 'AIC', day: DAY, holders: 3, total: '1800', ledgerTotal: '1800', ledgerNow: '1800', matches: true },
      { asset: 'USDT', day: DAY, holders: 1, total: '100.5', ledgerTotal: '100.5', ledgerNow: '100.5', matches: true },
    ]);
  });

  it('builds a day once: settling again changes nothing', async () => {
    const before = await published();
    expect(await buildProofs(t.ctx, DAY)).toBeNull();
    expect((await settleDay(t.ctx, DAY)).status).toBe('already_done');
    expect(await published()).toEqual(before);
  });

  it('spans chunks: 2,500 more holders, each proof verifies, the total is the ledger’s', async () => {
    // 2,500 holders funded by one balanced ledger entry, straight in SQL.
    const n = 2500;
    await t.ctx.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ id: bigint }>`insert into journal_entries (kind, ref) values ('test_funding', 'proof') returning id`.execute(trx);
      const entry = rows[0]?.id as bigint;
      const amount = (g: string) => sql.raw(`(${g}::bigint % 97 + 1) * ${UNIT}`);
      await sql`insert into accounts (user_id, asset, kind, balance)
        select 100000 + g, 'AIC', case when g % 3 = 0 then 'earning' else 'wallet' end, ${amount('g')}
        from generate_series(1, ${n}) g`.execute(trx);
      await sql`insert into postings (entry_id, user_id, asset, kind, amount)
        select ${entry}, 100000 + g, 'AIC', case when g % 3 = 0 then 'earning' else 'wallet' end, ${amount('g')}
        from generate_series(1, ${n}) g`.execute(trx);
      const { rows: sums } = await sql<{ total: bigint }>`select sum(${amount('g')})::bigint as total from generate_series(1, ${n}) g`.execute(trx);
      const total = sums[0]?.total as bigint;
      await sql`insert into postings (entry_id, user_id, asset, kind, amount) values (${entry}, ${SYSTEM}, 'AIC', 'exchange', ${-total})`.execute(trx);
      await sql`update accounts set balance = balance - ${total} where user_id = ${SYSTEM} and asset = 'AIC' and kind = 'exchange'`.execute(trx);
    });
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
    const day = '2026-11-02';
    t.ctx.clock.advance(DAY_MS);
    await settleDue(t.ctx);
    const roots = await published();
    const aic = roots.roots.find((r) => r.asset === 'AIC');
    expect(roots.day).toBe(day);
    expect(aic?.holders).toBe(2503);
    expect(aic?.total).toBe(formatUnits(await userTotal('AIC')));
    expect((await ledgerReport(t.ctx)).proofs[0]).toMatchObject({ matches: true, ledgerNow: aic?.total });

    // Holders in every chunk, at the edges too: each path has the tree's height (12 levels; the
    // lone last chunk carries its root up).
    const sampleIds = [1, 2, 511, 512, 1023, 1024, 1025, 2047, 2048, 2049, 2400, 2500].map((i) => 100000n + BigInt(i));
    for (const userId of [...sampleIds, ids.bob as bigint]) {
      const proof = await inclusionProof(t.ctx.db, userId, 'AIC');
      expect(await check(proof, proof), String(userId)).toMatchObject({ ok: true });
      expect(proof.path.length).toBeGreaterThanOrEqual(2);
      expect(proof.path.length).toBeLessThanOrEqual(12);
    }
    // The holder's nonce stays the same from day to day; the earlier day's proof still verifies.
    const earlier = await mine('bob', { day: DAY });
    expect(earlier.leaf.nonce).toBe((await mine('bob')).leaf.nonce);
    expect((await check(earlier, earlier)).ok).toBe(true);
  });

  it('answers a day built with other chunks: the stored levels it was built with, the same proofs', async () => {
    // The 2,503 holders' day of the test before, as a build with 1,024-leaf chunks (10 bits) stored it.
    const day = '2026-11-02';
    const sampleIds = [1, 512, 1024, 1025, 2049, 2500].map((i) => 100000n + BigInt(i));
    const before = await Promise.all(sampleIds.map((id) => inclusionProof(t.ctx.db, id, 'AIC', day)));
    const root = await t.ctx.db.selectFrom('proof_roots').selectAll().where('day', '=', day).where('asset', '=', 'AIC').executeTakeFirstOrThrow();
    expect(root.chunk_bits).toBe(CHUNK_BITS);
    const leaves = await readLeaves(t.ctx.db, day, 'AIC', 0, root.holders);
    const levels = buildLevels(leaves.map((row) => hashLeaf(toLeaf(row, 'AIC'), nodeSha256)), nodeSha256);
    const stored = await t.ctx.db.selectFrom('proof_nodes').selectAll().where('day', '=', day).where('asset', '=', 'AIC').execute();
    /** The day's stored levels and chunk height replaced by `nodes` and `bits`. */
    const store = (nodes: typeof stored, bits: number) =>
      t.ctx.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('proof_nodes').where('day', '=', day).where('asset', '=', 'AIC').execute();
        await trx.insertInto('proof_nodes').values(nodes).execute();
        await trx.updateTable('proof_roots').set({ chunk_bits: bits }).where('day', '=', day).where('asset', '=', 'AIC').execute();
      });
    const old = 10;
    await store(levels.slice(old).flatMap((level, l) => level.map((node, idx) => ({ day, asset: 'AIC' as const, level: l, idx, hash: node.hash, sum: node.sum }))), old);
    const after = await Promise.all(sampleIds.map((id) => inclusionProof(t.ctx.db, id, 'AIC', day)));
    expect(after).toEqual(before);
    // Read with today's chunk height, the same levels give no proof.
    await t.ctx.db.updateTable('proof_roots').set({ chunk_bits: CHUNK_BITS }).where('day', '=', day).where('asset', '=', 'AIC').execute();
    await expect(inclusionProof(t.ctx.db, sampleIds[0] as bigint, 'AIC', day)).rejects.toThrow(/proof node missing|does not verify/);
    await store(stored, CHUNK_BITS);
  });

  it('stores each leaf with the hash of its balances and nonce; a day built before that gives the same proofs', async () => {
    const day = '2026-11-02';
    const sampleIds = [1, 31, 32, 1025, 2500].map((i) => 100000n + BigInt(i));
    const before = await Promise.all(sampleIds.map((id) => inclusionProof(t.ctx.db, id, 'AIC', day)));
    const root = await t.ctx.db.selectFrom('proof_roots').select('holders').where('day', '=', day).where('asset', '=', 'AIC').executeTakeFirstOrThrow();
    const leaves = await readLeaves(t.ctx.db, day, 'AIC', 0, root.holders);
    const hashes = await t.ctx.db.selectFrom('proof_leaves').select(['position', 'hash']).where('day', '=', day).where('asset', '=', 'AIC').orderBy('position').execute();
    expect(hashes.map((h) => h.position)).toEqual(leaves.map((l) => l.position));
    expect(hashes.map((h) => toHex(h.hash ?? new Uint8Array()))).toEqual(leaves.map((l) => toHex(hashLeaf(toLeaf(l, 'AIC'), nodeSha256).hash)));
    // A day built before leaves kept their hash: rebuilt from the balances and nonces, the same proofs.
    await sql`update proof_leaves set hash = null where day = ${day}::date and asset = 'AIC'`.execute(t.ctx.db);
    expect(await Promise.all(sampleIds.map((id) => inclusionProof(t.ctx.db, id, 'AIC', day)))).toEqual(before);
    // A neighbour's stored hash altered: the proof no longer verifies, and is not given.
    const neighbour = (leaves.find((l) => l.user_id === sampleIds[0])?.position ?? 0) ^ 1;
    await sql`update proof_leaves set hash = sha256('altered') where day = ${day}::date and asset = 'AIC' and position = ${neighbour}`.execute(t.ctx.db);
    await expect(inclusionProof(t.ctx.db, sampleIds[0] as bigint, 'AIC', day)).rejects.toThrow(/does not verify/);
    await sql`update proof_leaves set hash = null where day = ${day}::date and asset = 'AIC' and position = ${neighbour}`.execute(t.ctx.db);
  });

  it('keeps leaves for 30 days; the roots stay published', async () => {
    await buildProofs(t.ctx, '2026-12-02');
    expect((await as('bob', PATHS.proofMine, { day: DAY })).json().code).toBe(ERRORS.NOT_FOUND.code);
    expect((await published(DAY)).roots).toHaveLength(2);
    expect((await mine('bob', { day: '2026-11-02' })).day).toBe('2026-11-02');
  });
});
