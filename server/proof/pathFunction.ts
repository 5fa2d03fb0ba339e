import { sql } from 'kysely';
import { PLANNED_ONCE } from '../db/readFunction.ts';

/**
 * `proof_path(user, asset, day)`: what a holder's inclusion proof is built from (proof/repository.ts),
 * as rows of three parts:
 * - `root`: the day's published root (the latest day built when `day` is null): `day`, `hash`,
 *   `sum`, `holders`, `chunk_bits`; no row at all when there is none;
 * - `leaf`: the leaves of the chunk (2^chunk_bits positions) holding the holder's leaf, in tree
 *   order, each with its balances, `sum` and stored `hash`, and the holder's own position on every
 *   row (`mine`); the nonce only on the holder's own leaf and on leaves without a stored hash (days
 *   built before migration 0044), which are hashed from it; none when the holder has no leaf that
 *   day;
 * - `node`: the stored siblings of the chunk's root on its way up, by `level` and `idx`.
 *
 * A function so that each connection plans it once (`PLANNED_ONCE`: a generic plan, no JIT), and
 * so that the proofs asked at once are one statement (platform/readCalls.ts). The holder's
 * position is read first, then its chunk as a range of the position index: in one statement, the
 * generic plan read every leaf of the day and filtered the range. Each nonce is one key lookup:
 * joined, the nonces were planned as a scan of every holder's.
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const PROOF_PATH = sql`
  create or replace function proof_path(p_user bigint, p_asset text, p_day date)
  returns table (
    part text, day date, holders integer, chunk_bits integer, mine integer, leaf integer, user_id bigint, wallet bigint,
    earning bigint, rewards bigint, locked_rewards bigint, network_rewards bigint, withdrawals_pending bigint, nonce bytea,
    level integer, idx integer, hash bytea, sum bigint
  )
  language plpgsql stable
  ${PLANNED_ONCE}
  as $fn$
  #variable_conflict use_column
  declare
    v_root proof_roots%rowtype;
    v_mine integer;
    v_chunk integer;
    v_levels integer;
  begin
    select * into v_root from proof_roots r where r.asset = p_asset and (p_day is null or r.day = p_day) order by r.day desc limit 1;
    if not found then return; end if;
    return query select 'root', v_root.day, v_root.holders, v_root.chunk_bits::integer, null::integer, null::integer, null::bigint,
      null::bigint, null::bigint, null::bigint, null::bigint, null::bigint, null::bigint, null::bytea, null::integer, null::integer,
      v_root.root, v_root.total;
    select l.position into v_mine from proof_leaves l where l.user_id = p_user and l.day = v_root.day and l.asset = p_asset;
    if v_mine is null then return; end if;
    v_chunk := v_mine >> v_root.chunk_bits;
    return query
      select 'leaf', null::date, null::integer, null::integer, v_mine, l.position, l.user_id, l.wallet, l.earning, l.rewards,
        l.locked_rewards, l.network_rewards, l.withdrawals_pending,
        case when l.position = v_mine or l.hash is null then (select n.nonce from proof_nonces n where n.user_id = l.user_id) end,
        null::integer, null::integer, l.hash,
        l.wallet + l.earning + l.rewards + l.locked_rewards + l.network_rewards + l.withdrawals_pending
      from proof_leaves l
      where l.day = v_root.day and l.asset = p_asset
        and l.position >= v_chunk << v_root.chunk_bits and l.position < (v_chunk + 1) << v_root.chunk_bits
      order by l.position;
    -- The chunk's root's sibling at each level above it, up to the root's: a key lookup each
    -- (a last node without a sibling has none stored). The series is of constant length: with a
    -- bound known only at the call, the generic plan took it for a thousand rows and read every
    -- node of the day.
    v_levels := ceil(log(2, ceil(v_root.holders / (1 << v_root.chunk_bits)::numeric)))::integer;
    return query
      select 'node', null::date, null::integer, null::integer, null::integer, null::integer, null::bigint, null::bigint, null::bigint,
        null::bigint, null::bigint, null::bigint, null::bigint, null::bytea, s.level::integer, s.idx, s.hash, s.sum
      from generate_series(0, 31) lv
      join proof_nodes s on s.day = v_root.day and s.asset = p_asset and s.level = lv and s.idx = (v_chunk >> lv) # 1
      where lv < v_levels
      order by s.level;
  end
  $fn$`;
