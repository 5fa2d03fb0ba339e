import { sql } from 'kysely';
import { PLANNED_ONCE } from '../db/readFunction.ts';

/**
 * `proof_chunk(user, asset, day, bits)`: the leaves of the chunk (2^bits positions) holding the
 * holder's leaf in the day's tree, in tree order, each with its holder's nonce, and the holder's
 * own position on every row (`mine`, the rows' own `leaf`); no row when the holder has no leaf that day. What a holder's
 * inclusion proof is rebuilt from (proof/repository.ts).
 *
 * A function so that each connection plans it once (a generic plan, as `readFunction`'s): the
 * leaves are partitioned by day and part, and planning the two reads over every partition cost
 * more than running them. The plan leaves out the other days' partitions when it starts. Each
 * nonce is one key lookup: joined, the nonces were planned as a scan of every holder's.
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const PROOF_CHUNK = sql`
  create or replace function proof_chunk(p_user bigint, p_asset text, p_day date, p_bits integer)
  returns table (
    mine integer, leaf integer, user_id bigint, wallet bigint, earning bigint, rewards bigint,
    locked_rewards bigint, network_rewards bigint, withdrawals_pending bigint, nonce bytea
  )
  language plpgsql stable
  ${PLANNED_ONCE}
  as $fn$
  #variable_conflict use_column
  declare
    v_mine integer;
    v_from integer;
  begin
    -- The holder's position first, then its chunk as a range of the position index: in one
    -- statement, the generic plan read every leaf of the day and filtered the range.
    select l.position into v_mine from proof_leaves l where l.user_id = p_user and l.day = p_day and l.asset = p_asset;
    if v_mine is null then return; end if;
    v_from := (v_mine >> p_bits) << p_bits;
    return query
      select v_mine, l.position, l.user_id, l.wallet, l.earning, l.rewards, l.locked_rewards, l.network_rewards,
        l.withdrawals_pending, (select n.nonce from proof_nonces n where n.user_id = l.user_id)
      from proof_leaves l
      where l.day = p_day and l.asset = p_asset and l.position >= v_from and l.position < v_from + (1 << p_bits)
      order by l.position;
  end
  $fn$`;
