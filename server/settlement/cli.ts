/**
 * Settlement from the command line, for operators:
 *   npm run settle                 everything due up to now
 *   npm run settle -- 2026-11-21   that finished day (again: a settled day pays nothing twice)
 * Uses the same configuration as the server (DATABASE_URL or DATA_DIR) and the same clock (the
 * demo clock's offset is kept in the database). A day that has not ended is refused.
 */
import { ERRORS } from '../../contract/errors.ts';
import { loadConfig } from '../config.ts';
import { connect } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { AppError } from '../http/errors.ts';
import { isCalendarDay, systemClock } from '../platform/clock.ts';
import { loadClockOffset } from '../platform/sharedClock.ts';
import { seedTeamRules } from '../team/rules.ts';
import { settleDay, settleDue } from './settle.ts';

const day = process.argv[2];
if (day !== undefined && !isCalendarDay(day)) {
  console.error(`settle: ${day} is not a calendar day; usage: npm run settle -- [YYYY-MM-DD]`);
  process.exit(2);
}
const config = loadConfig();
const handle = await connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
let code = 0;
try {
  await migrateToLatest(handle.db);
  const demoClock = config.clockAdjustable || config.clockStart !== undefined;
  const clock = systemClock(demoClock ? await loadClockOffset(handle.db) : 0);
  const ctx = { config, db: handle.db, dbKind: handle.kind, clock };
  await seedTeamRules(ctx.db, config.team, ctx.clock.now());
  const reports = day ? [await settleDay(ctx, day)] : await settleDue(ctx);
  console.log(JSON.stringify(reports, null, 2));
} catch (error) {
  if (!(error instanceof AppError)) throw error;
  // A refusal is the operator's to read, not a stack: one line, as the operator console says it.
  console.error(`settle: ${error.message} (${error.errorName}, code ${ERRORS[error.errorName].code})`);
  code = 2;
} finally {
  await handle.close();
}
process.exit(code);
