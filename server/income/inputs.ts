import { sql } from 'kysely';
import type { IncomeInputs, IncomeKind } from '../../contract/income.ts';

/**
 * The columns a line of each kind keeps what it was computed from in, as a step's candidates name
 * them: plain columns rather than a jsonb per line, which cost about twice as much to build and
 * write (migrations 0027 and 0028). A fixed, current or rebate line keeps the amount its rate was
 * applied to (`source`) and the rate; a static line its order's power, reinvestment and principal
 * (`source`, which the day's cap applies to), the day's shared figures being the day's
 * (`settlement_days.static_inputs`).
 */
export const LINE_COLUMNS = {
  fixed: ['source', 'rate', 'rate_from'],
  current: ['source', 'rate', 'rate_from', 'cycle'],
  static: ['power', 'reinvest', 'source'],
  rebate: ['source', 'rate', 'generation', 'level', 'earner', 'branch'],
} as const satisfies Record<IncomeKind, readonly string[]>;

/**
 * The inputs of the income line `line` (a trusted alias of `income`) as one jsonb, whichever way
 * they were stored: the jsonb of a line written before migrations 0027 and 0028; for a static line
 * the day's shared figures with its power and reinvestment; for the other kinds their columns. The
 * same object the line's statement built when inputs were a jsonb on every line (jsonb keeps its
 * keys in one order, however it was built).
 */
export const lineInputs = (line: string) => {
  const c = (name: string) => sql.ref(`${line}.${name}`);
  return sql<IncomeInputs>`coalesce(${c('inputs')}, case ${c('kind')}
    when 'fixed' then jsonb_build_object('principal', ${c('source')}::text, 'rate', ${c('rate')}, 'rateFrom', ${c('rate_from')})
    when 'current' then jsonb_build_object('holding', ${c('source')}::text, 'rate', ${c('rate')}, 'cycle', ${c('cycle')},
      'rateFrom', ${c('rate_from')})
    when 'static' then (select d.static_inputs from settlement_days d where d.day = ${c('day')})
      || jsonb_strip_nulls(jsonb_build_object('power', ${c('power')}::text, 'reinvest', ${c('reinvest')},
        'principal', ${c('source')}::text))
    when 'rebate' then jsonb_build_object('generation', ${c('generation')}, 'level', ${c('level')},
      'source', ${c('source')}::text, 'rate', ${c('rate')}, 'earner', ${c('earner')}::text, 'branch', ${c('branch')}::text)
    end)`;
};

/**
 * A holder a rebate line names, however its inputs were stored: its `earner` (the holder it was
 * earned on) or its `branch` (the direct invitee it came through).
 */
export const rebateHolder = (line: string, which: 'earner' | 'branch') =>
  sql<bigint>`coalesce(${sql.ref(`${line}.${which}`)}, (${sql.ref(`${line}.inputs`)} ->> ${sql.lit(which)})::bigint)`;
