import type { RawBuilder } from 'kysely';
import { WINDOW_PERFORMANCE } from './activity/windowFunction.ts';
import { SESSION_LIST } from './auth/sessionListFunction.ts';
import { BIGINT_SUM } from './db/aggregates.ts';
import { ANALYZE_ON_SAMPLE } from './db/analyze.ts';
import { EARN_BUY, EARN_BUY_BATCH, EARN_BUY_BATCH_WITHIN } from './earn/buyFunction.ts';
import { HOLDER_ACCOUNTS, HOLDER_HOLDINGS } from './earn/holdingsFunction.ts';
import { ORDER_PAGE } from './earn/orderPageFunction.ts';
import { HOLDER_FIGURES } from './earn/productInfoFunction.ts';
import { TRANSFER_PAGE } from './wallet/transferFunctions.ts';
import { USER_LOG } from './earn/userLogFunction.ts';
import { DAILY_INCOME, REWARD_LOG } from './earn/rewardLogFunction.ts';
import { LEDGER_MOVE } from './ledger/functions.ts';
import { NOTICE_LIST, NOTICE_PAGE, NOTICE_UNREAD, NOTICE_UNREAD_COUNT } from './notify/dayNotices.ts';
import { HOLDER_PROOF } from './proof/pathFunction.ts';
import { MONTHLY_STATEMENTS, MOVEMENTS_AFTER } from './statement/functions.ts';
import { TEAM_LEVEL, TEAM_ROLL_UP, TEAM_STAGE_UPLINES } from './team/functions.ts';
import { USER_SUMMARIES } from './team/summaryFunction.ts';
import { ZERO_PROFIT } from './team/zeroProfitFunction.ts';
import { INVITE_RECORDS, INVITER_BY_CODE, ZERO_LOG } from './team/listFunctions.ts';

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
  MOVEMENTS_AFTER,
  NOTICE_UNREAD_COUNT,
  NOTICE_UNREAD,
  NOTICE_PAGE,
  NOTICE_LIST,
  REWARD_LOG,
  DAILY_INCOME,
  USER_SUMMARIES,
  HOLDER_PROOF,
  HOLDER_HOLDINGS,
  HOLDER_ACCOUNTS,
  ORDER_PAGE,
  HOLDER_FIGURES,
  TRANSFER_PAGE,
  USER_LOG,
  ZERO_PROFIT,
  INVITER_BY_CODE,
  INVITE_RECORDS,
  ZERO_LOG,
  WINDOW_PERFORMANCE,
  SESSION_LIST,
];
