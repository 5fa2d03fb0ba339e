import { type RawBuilder, sql } from 'kysely';

/**
 * The settings of a holder's read written as a function: one generic plan per connection
 * (`plan_cache_mode`), and no JIT. A generic plan's estimates are for any holder and any range,
 * so they can pass `jit_above_cost` where the read itself touches a few rows: at a million
 * holders the proof's chunk read was compiled at every call, which cost fifty times the read.
 */
export const PLANNED_ONCE = sql`set plan_cache_mode = force_generic_plan set jit = off`;

/**
 * `create or replace function <head> … return query <query>`: a holder's read as an SQL function
 * whose plan each connection makes once. Sent as a statement, even a prepared one, PostgreSQL
 * kept planning such reads at many calls (a plan for the values at hand looked cheaper than one
 * for any), and planning cost more than running them. A generic plan is forced
 * (`plan_cache_mode`); it suits a read whose plan is the same for every holder, or that prunes
 * partitions when it starts. `head` is the name, parameters and `returns table (…)`; its columns
 * may share the tables' names (`use_column`).
 */
export const readFunction = (head: RawBuilder<unknown>, query: RawBuilder<unknown>) => sql`
  create or replace function ${head}
  language plpgsql stable
  ${PLANNED_ONCE}
  as $fn$
  #variable_conflict use_column
  begin
    return query ${query};
  end
  $fn$`;

/**
 * `create or replace function <head> returns table (items text, next_cursor text)`: a page of
 * `rows` (a set-returning call asked for one row more than `p_limit`, in the page's order) as the
 * answer's data: its first `p_limit` rows as a JSON array of `item` (JSON text, db/wireText.ts; each row is `r`, with the
 * columns of `lateral` as `x`), and the `cursor` of the page's last row when a row follows it.
 * The route sends the text as it is (platform/readCalls.ts, `gatheredPages`): parsing each row
 * and writing it again cost the server more than the read cost the database.
 */
export const pageFunction = (
  head: RawBuilder<unknown>,
  page: { rows: RawBuilder<unknown>; item: RawBuilder<unknown>; cursor: RawBuilder<unknown>; lateral?: RawBuilder<unknown> },
) =>
  readFunction(
    sql`${head} returns table (items text, next_cursor text)`,
    sql`
    select '[' || coalesce(string_agg(${page.item}, ',' order by r.ordinality) filter (where r.ordinality <= p_limit), '') || ']',
      case when count(*) > p_limit then (array_agg(${page.cursor} order by r.ordinality))[p_limit] end
    from ${page.rows} with ordinality as r
    ${page.lateral ? sql`cross join lateral (${page.lateral}) x` : sql``}`,
  );
