import { type Kysely, sql } from 'kysely';

/**
 * The pool's output and the rebates store what each line was computed from in columns of its
 * own, not in a jsonb per line: they are most of the day's lines, and building and writing the
 * jsonb, most of it the same figures on every line, cost about as much time and room as the rest
 * of the line. A static line keeps its order's power and reinvestment; the day's
 * figures every static line shares (output, total power, coefficient, rates...) are stored once,
 * in `settlement_days.static_inputs`. A rebate line keeps its generation, level, rate, source
 * amount, earner and branch. `inputs` stays for the fixed and current lines and for every line
 * written before; server/income/inputs.ts reads both as the same jsonb.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table income alter column inputs drop not null`.execute(db);
  await sql`
    alter table income
      add column power bigint, add column reinvest boolean,
      add column source bigint, add column rate text, add column generation smallint,
      add column level smallint, add column earner bigint, add column branch bigint`.execute(db);
  await sql`alter table settlement_days add column static_inputs jsonb`.execute(db);
}

/** Back to a jsonb on every line: the lines written since get theirs from their columns first. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    update income i set inputs = case i.kind
      when 'static' then (select d.static_inputs from settlement_days d where d.day = i.day)
        || jsonb_build_object('power', i.power::text, 'reinvest', i.reinvest)
      else jsonb_build_object('generation', i.generation, 'level', i.level, 'source', i.source::text,
        'rate', i.rate, 'earner', i.earner::text, 'branch', i.branch::text)
      end
    where i.inputs is null`.execute(db);
  await sql`alter table income alter column inputs set not null`.execute(db);
  await sql`alter table settlement_days drop column if exists static_inputs`.execute(db);
  await sql`
    alter table income
      drop column if exists power, drop column if exists reinvest,
      drop column if exists source, drop column if exists rate, drop column if exists generation,
      drop column if exists level, drop column if exists earner, drop column if exists branch`.execute(db);
}
