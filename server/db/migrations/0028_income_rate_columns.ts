import { type Kysely, sql } from 'kysely';

/**
 * The fixed accrual's and the current cycles' lines keep what they were computed from in columns
 * too, as the pool's output and the rebates do since migration 0027: at a million holders they
 * are 0.6 million lines a day, and each built and wrote a jsonb of three or four keys. Each such
 * line is an amount the rate was applied to (`source`: the fixed order's principal, the current
 * order's holding, as a rebate's source is the earner's static amount), the rate (`rate`), the day
 * that rate took effect (`rate_from`) and, for a current line, the cycle it paid (`cycle`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table income add column rate_from text, add column cycle integer`.execute(db);
}

/** Back to a jsonb on the fixed and current lines: those written since get theirs from their columns. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    update income i set inputs = case i.kind
      when 'fixed' then jsonb_build_object('principal', i.source::text, 'rate', i.rate, 'rateFrom', i.rate_from)
      else jsonb_build_object('holding', i.source::text, 'rate', i.rate, 'cycle', i.cycle, 'rateFrom', i.rate_from)
      end
    where i.inputs is null and i.kind in ('fixed', 'current')`.execute(db);
  await sql`alter table income drop column if exists rate_from, drop column if exists cycle`.execute(db);
}
