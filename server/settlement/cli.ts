/**
 * Settlement from the command line, for operators:
 *   npm run settle                 everything due up to now
 *   npm run settle -- 2026-11-21   that finished day (again: a settled day pays nothing twice)
 * Uses the same configuration as the server (DATABASE_URL or DATA_DIR).
 */
import { loadConfig } from '../config.ts';
import { connect } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { systemClock } from '../platform/clock.ts';
import { seedTeamRules } from '../team/rules.ts';
import { settleDay, settleDue } from './settle.ts';

const day = process.argv[2];
if (day && !/^\d{4}-\d{2}-\d{2}$/.test(day)) {
  console.error('usage: npm run settle -- [YYYY-MM-DD]');
  process.exit(2);
}
const config = loadConfig();
const handle = await connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrateToLatest(handle.db);
  const ctx = { config, db: handle.db, dbKind: handle.kind, clock: systemClock() };
  await seedTeamRules(ctx.db, config.team, ctx.clock.now());
  const reports = day ? [await settleDay(ctx, day)] : await settleDue(ctx);
  console.log(JSON.stringify(reports, null, 2));
} finally {
  await handle.close();
}
