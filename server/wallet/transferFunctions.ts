import { sql } from 'kysely';
import { readFunction } from '../db/readFunction.ts';

/**
 * `transfer_page(user, type, from, to, before, limit)`: a holder's transfers, newest first, of
 * the type given (every type when null), with the creation time in [from, to) when given, with
 * ids below `before`, at most `limit`: the transfer records' page (wallet/repository.ts,
 * `listTransfers`), gathered for the holders asking at once (platform/readCalls.ts). The columns
 * are `COLUMNS` of wallet/repository.ts; the transfers' key (user, id) read backwards serves any
 * filter.
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const TRANSFER_PAGE = readFunction(
  sql`transfer_page(p_user bigint, p_type text, p_from timestamptz, p_to timestamptz, p_before bigint, p_limit int)
    returns table (id bigint, user_id bigint, type text, asset text, amount bigint, status text, reason text,
      created_at timestamptz, reviewed_at timestamptz, reviewed_by bigint, exchange_id text, request_key text,
      request_user bigint, attempts int, account text, requested_by bigint)`,
  sql`
    select t.id, t.user_id, t.type, t.asset, t.amount, t.status, t.reason, t.created_at, t.reviewed_at, t.reviewed_by,
      t.exchange_id, t.request_key, t.request_user, t.attempts, t.account, t.requested_by
    from transfers t
    where t.user_id = p_user and t.id < p_before
      and (p_type is null or t.type = p_type)
      and (p_from is null or t.created_at >= p_from)
      and (p_to is null or t.created_at < p_to)
    order by t.id desc
    limit p_limit`,
);
