import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorEnvelope } from '../../contract/envelope.ts';
import { PATHS } from '../../contract/paths.ts';
import { MonthlyData, MonthlyQuery } from '../../contract/statement.ts';
import { userIdOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { answers, ok } from '../http/schemas.ts';
import { utcDay } from '../platform/clock.ts';
import { statementCsv } from './csv.ts';
import { monthlyStatement } from './monthly.ts';

const secured = { security: [{ bearer: [] }] };
const tags = ['statement'];

/** The CSV's columns as the API documentation states them (docs/statements.md says more). */
const CSV_DESCRIPTION = [
  'Every ledger movement of the signed-in holder, the whole history, oldest first, as CSV',
  '(RFC 4180: comma-separated, CRLF line ends, a header line, fields with a comma or quote quoted).',
  'Streamed page by page. Columns:',
  '`time` UTC ISO 8601 of the journal entry;',
  '`entry_id` the journal entry (several rows share it when it moves money between the holder’s own accounts);',
  '`type` income | rebate | unlock | maturity | subscription | redemption | claim | recharge | transfer |',
  'withdrawal | withdrawal_returned | demo_funding | system | other;',
  '`account` wallet | earning | rewards | locked_rewards | network_rewards | withdrawals_pending;',
  '`asset` AIC | USDT;',
  '`amount` signed decimal with exactly 8 decimals (credit positive, debit negative);',
  '`balance_after` that account’s balance after the row, exact, 8 decimals (the running sum of its rows);',
  '`reference` what the entry is about: order:<id>, transfer:<id>, settlement:<day>:<step>, claim:<user>, demo:<user>;',
  '`flow` in | earnings | out | internal: what the entry moved between the holder and anyone else (internal: between the',
  'holder’s own accounts); the monthly statement’s money in, earnings and money out are the sums of the in, earnings and out rows.',
].join(' ');

export const statementRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    PATHS.statementCsv,
    {
      schema: {
        tags,
        summary: 'The holder’s whole ledger history as a CSV download',
        description: CSV_DESCRIPTION,
        ...secured,
        response: {
          200: {
            description: 'text/csv attachment',
            content: { 'text/csv': { schema: Type.String() } },
          },
          '4xx': ErrorEnvelope,
          '5xx': ErrorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      const filename = `aic-statement-${userId}-${utcDay(ctx.clock.now())}.csv`;
      const body = Readable.from(statementCsv(ctx.db, userId));
      body.on('error', (error) => request.log.error({ err: error }, 'statement export failed'));
      return sendCsv(reply, filename, body);
    },
  );

  app.get(
    PATHS.statementMonthly,
    {
      schema: {
        tags,
        summary: 'A month’s statement: opening balance, movements (paged, oldest first), closing balance',
        description:
          'Per asset, summed over the holder’s accounts: opening + moneyIn + earnings + moneyOut = closing, exactly; money between the holder’s own accounts is in none of the three. Each account’s figures: opening + credits + debits = closing. Movements are the rows of the CSV export that fall in the month (UTC), with the same types, flows and balance after.',
        ...secured,
        querystring: MonthlyQuery,
        response: answers(MonthlyData),
      },
    },
    async (request) => ok(await monthlyStatement(ctx.db, userIdOf(request), request.query, ctx.clock.now())),
  );
};

/** A CSV download, streamed as it is written (the route's schema describes it as text). */
function sendCsv(reply: FastifyReply, filename: string, body: Readable): FastifyReply {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(body);
}
