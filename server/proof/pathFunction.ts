import { sql } from 'kysely';
import { OWNED_KINDS } from '../../contract/owned.ts';
import { PLANNED_ONCE } from '../db/readFunction.ts';

/** A leaf's balances from the leaf row `l`, in the leaf's order: `int8send` of each, joined. */
const balancesBytes = OWNED_KINDS.map((kind) => `int8send(l.${kind})`).join(' || ');
/** A leaf's sum from the leaf row `l`. */
const leafSum = OWNED_KINDS.map((kind) => `l.${kind}`).join(' + ');

/**
 * The hash of leaf row `l` as contract/merkle.ts encodes a leaf (0x00, nonce, holder, asset as its
 * length and bytes, the balances), for the days built before leaves kept their hash (migration
 * 0044); the nonce is looked up only for those.
 */
const hashOfRow = `sha256('\\x00'::bytea || (select n.nonce from proof_nonces n where n.user_id = l.user_id) || int8send(l.user_id)
  || set_byte('\\x00'::bytea, 0, octet_length(p_asset)) || convert_to(p_asset, 'UTF8') || ${balancesBytes})`;

/**
 * `holder_proof(user, asset, day)`: what a holder's inclusion proof is built from
 * (proof/repository.ts), one row: the day's published root (the latest day built when `day` is
 * null: `day`, `holders`, `chunk_bits`, `root`, `total`; no row at all when there is none); the
 * holder's leaf (`mine`, its position, and its balances and nonce; null when the holder has no leaf
 * that day); and as bytes, so that the server reads two values and not a row per node:
 * - `chunk`: the leaves of the chunk (2^chunk_bits positions) holding the holder's, in tree order,
 *   each its hash (32 bytes, as the build stored it) and sum (8, big-endian);
 * - `nodes`: the stored siblings of the chunk's root on its way up, by level, each its level (4
 *   bytes), hash (32) and sum (8).
 *
 * A function so that each connection plans it once (`PLANNED_ONCE`: a generic plan, no JIT), and
 * so that the proofs asked at once are one statement (platform/readCalls.ts). The holder's leaf
 * is read first, then its chunk as a range of the position index: in one statement, the generic
 * plan read every leaf of the day and filtered the range.
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const HOLDER_PROOF = sql`
  create or replace function holder_proof(p_user bigint, p_asset text, p_day date)
  returns table (
    day date, holders integer, chunk_bits integer, root bytea, total bigint, mine integer, user_id bigint, wallet bigint,
    earning bigint, rewards bigint, locked_rewards bigint, network_rewards bigint, withdrawals_pending bigint, nonce bytea,
    chunk bytea, nodes bytea
  )
  language plpgsql stable
  ${PLANNED_ONCE}
  as $fn$
  #variable_conflict use_column
  declare
    v_root proof_roots%rowtype;
    v_leaf proof_leaves%rowtype;
    v_chunk integer;
    v_levels integer;
  begin
    select * into v_root from proof_roots r where r.asset = p_asset and (p_day is null or r.day = p_day) order by r.day desc limit 1;
    if not found then return; end if;
    select * into v_leaf from proof_leaves l where l.user_id = p_user and l.day = v_root.day and l.asset = p_asset;
    if not found then
      return query select v_root.day, v_root.holders, v_root.chunk_bits::integer, v_root.root, v_root.total, null::integer,
        null::bigint, null::bigint, null::bigint, null::bigint, null::bigint, null::bigint, null::bigint, null::bytea, null::bytea,
        null::bytea;
      return;
    end if;
    v_chunk := v_leaf.position >> v_root.chunk_bits;
    -- The chunk's root's sibling at each level above it, up to the root's: a key lookup each
    -- (a last node without a sibling has none stored). The series is of constant length: with a
    -- bound known only at the call, the generic plan took it for a thousand rows and read every
    -- node of the day.
    v_levels := ceil(log(2, ceil(v_root.holders / (1 << v_root.chunk_bits)::numeric)))::integer;
    return query select v_root.day, v_root.holders, v_root.chunk_bits::integer, v_root.root, v_root.total, v_leaf.position,
      v_leaf.user_id, v_leaf.wallet, v_leaf.earning, v_leaf.rewards, v_leaf.locked_rewards, v_leaf.network_rewards,
      v_leaf.withdrawals_pending, (select n.nonce from proof_nonces n where n.user_id = p_user),
      (select string_agg(coalesce(l.hash, ${sql.raw(hashOfRow)}) || int8send(${sql.raw(leafSum)}), ''::bytea order by l.position)
        from proof_leaves l
        where l.day = v_root.day and l.asset = p_asset
          and l.position >= v_chunk << v_root.chunk_bits and l.position < (v_chunk + 1) << v_root.chunk_bits),
      (select string_agg(int4send(s.level) || s.hash || int8send(s.sum), ''::bytea order by s.level)
        from generate_series(0, 31) lv
        join proof_nodes s on s.day = v_root.day and s.asset = p_asset and s.level = lv and s.idx = (v_chunk >> lv) # 1
        where lv < v_levels);
  end
  $fn$`;
