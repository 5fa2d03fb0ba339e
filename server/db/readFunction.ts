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
