/**
 * The income verifier from the command line, for operators:
 *   npm run verify                          every settled day
 *   npm run verify -- 2026-11-20            one day
 *   npm run verify -- 2026-11-01 2026-11-30 a range
 * Recomputes every income line from its inputs and the raw records, checks the referral tree, and
 * lists reconciliation differences with the exchange not yet resolved; exits 1 on any problem,
 * 2 on a usage error, 3 when the database cannot be opened (one line says why: a DATA_DIR the
 * server holds, a DATABASE_URL that does not answer), so that no script reads that as a difference.
 */
import { sql } from 'kysely';
import { loadConfig, StartupError } from '../config.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { openDatabase } from '../db/open.ts';
import { checkTree } from '../team/tree.ts';
import { settledDays, verifyDay } from './verify.ts';

const [from, to = from] = process.argv.slice(2);
if ([from, to].some((day) => day !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(day))) {
  console.error('usage: npm run verify -- [YYYY-MM-DD [YYYY-MM-DD]]');
  process.exit(2);
}
const config = loadConfig();
const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }).catch((error: unknown) => {
  if (!(error instanceof StartupError)) throw error;
  console.error(`npm run verify: ${error.message}`);
  process.exit(3);
});
let failed = 0;
try {
  await migrateToLatest(handle.db);
  for (const day of await settledDays(handle.db, from, to)) {
    const report = await verifyDay(handle.db, config, day);
    const totals = Object.entries(report.totals).map(([kind, total]) => `${kind} ${total}`).join(', ');
    console.log(`${day}  ${report.lines} lines  ${report.problemCount ? `${report.problemCount} PROBLEMS` : 'ok'}  ${totals}`);
    for (const problem of report.problems) console.log(`  ${problem}`);
    if (report.problemCount) failed++;
  }
  // The tree the rebates walk: a stale path or a cycle pays rebates that should not exist.
  const tree = await checkTree(handle.db);
  const cycles = tree.cycles.map((c) => c.join(' > ')).join('; ');
  console.log(
    tree.ok
      ? 'referral tree  ok'
      : `referral tree  PROBLEMS  ${tree.stalePaths} stale paths (${tree.staleSample.join(', ')}), ` +
          `${tree.cycles.length} cycles${cycles ? ` (${cycles})` : ''}, ${tree.selfRebateLines} self-paid rebate lines`,
  );
  if (!tree.ok) failed++;
  // Money across the exchange boundary: a difference with the exchange's books stays red until an
  // operator resolves it (server/wallet/reconcile.ts).
  const { rows } = await sql<{ day: string; kind: string; transfer_id: string | null; asset: string | null }>`
    select day::text as day, kind, transfer_id, asset from reconciliation_differences
    where resolved_at is null order by id limit 50`.execute(handle.db);
  const last = await sql<{ day: string | null }>`select max(day)::text as day from reconciliations`.execute(handle.db);
  console.log(
    rows.length === 0
      ? `exchange reconciliation  ok${last.rows[0]?.day ? ` (through ${last.rows[0].day})` : ' (nothing reconciled yet)'}`
      : `exchange reconciliation  ${rows.length} OPEN DIFFERENCES`,
  );
  for (const d of rows) console.log(`  ${d.day} ${d.kind} ${d.transfer_id ?? d.asset ?? ''}`);
  if (rows.length) failed++;
} finally {
  await handle.close();
}
process.exit(failed ? 1 : 0);
