import type { RawBuilder } from 'kysely';
import { BIGINT_SUM } from './db/aggregates.ts';
import { ANALYZE_ON_SAMPLE } from './db/analyze.ts';
import { EARN_BUY, EARN_BUY_BATCH, EARN_BUY_BATCH_WITHIN } from './earn/buyFunction.ts';
import { HOLDINGS_OF } from './earn/holdingsFunction.ts';
import { REWARD_LOG } from './earn/rewardLogFunction.ts';
import { LEDGER_MOVE } from './ledger/functions.ts';
import { NOTICE_PAGE, NOTICE_UNREAD_COUNT } from './notify/dayNotices.ts';
import { PROOF_CHUNK } from './proof/chunkFunction.ts';
import { MONTHLY_STATEMENTS } from './statement/functions.ts';
import { TEAM_LEVEL, TEAM_ROLL_UP, TEAM_STAGE_UPLINES } from './team/functions.ts';
import { USER_SUMMARIES } from './team/summaryFunction.ts';

/**
 * The SQL functions of the server, each defined in the folder that owns it, in dependency order
 * (a function after those it calls). `migrateToLatest` (db/migrate.ts) runs these
 * `create or replace function` statements after the migrations, in the same transaction, on
 * every start: functions are code, so a fresh database and an old one both get today's text.
 *
 * Here and not in server/db: db may not import the folders that own them (ledger and earn
 * import db; depcruise's folder pass refuses the cycle). The definition files import only kysely,
 * ledger's `balances.ts` and db's `readFunction.ts` (which import nothing of the app).
 */
export const SQL_FUNCTIONS: RawBuilder<unknown>[] = [
  BIGINT_SUM,
  ANALYZE_ON_SAMPLE,
  LEDGER_MOVE,
  EARN_BUY,
  EARN_BUY_BATCH_WITHIN,
  EARN_BUY_BATCH,
  TEAM_LEVEL,
  TEAM_ROLL_UP,
  TEAM_STAGE_UPLINES,
  MONTHLY_STATEMENTS,
  NOTICE_UNREAD_COUNT,
  NOTICE_PAGE,
  REWARD_LOG,
  USER_SUMMARIES,
  PROOF_CHUNK,
  HOLDINGS_OF,
];
