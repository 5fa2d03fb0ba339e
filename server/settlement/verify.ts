import { sql } from 'kysely';
import {
  coefficientOf,
  type IncomeInputs,
  isIncomeKind,
  MissingInput,
  recomputeIncome,
  recomputePoolOutput,
} from '../../contract/income.ts';
import { formatUnits } from '../../contract/money.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/connect.ts';
import { daysBetween, EARN_PARAM_NAMES } from '../earn/params.ts';
import { SYSTEM } from '../ledger/ledger.ts';
import { type ParamName, paramHistory } from '../platform/params.ts';
import { teamRules } from '../team/rules.ts';
import type { TeamRules } from '../../contract/teamRules.ts';
import { productsIn } from '../db/statuses.ts';
import { addDays } from '../platform/clock.ts';
import { lineInputs } from '../income/inputs.ts';
import { productOf } from '../../contract/products.ts';
import type { Product } from '../db/schema.ts';

/**
 * Recomputes every income line of a settled day from its stored inputs and the raw records
 * (parameters, orders, the day's pool figures, the ledger), without the settlement code: the
 * formulas come from contract/income.ts, written apart from the settlement SQL. Any line that
 * differs by even 1e-8 is a problem.
 */
export type VerifyReport = {
  day: string;
  status: string | null;
  lines: number;
  totals: Record<string, string>;
  problems: string[];
  problemCount: number;
};

/** An income line, with its order's product (null for a rebate: its order is the earner's). */
type Line = { user_id: bigint; order_id: bigint; kind: string; amount: bigint; inputs: IncomeInputs; product: Product | null };
type InForce = { value: string; from: string | null };

const PAGE = 10_000;
const MAX_LISTED = 50;

export async function verifyDay(db: Db, config: Config, day: string): Promise<VerifyReport> {
  const problems: string[] = [];
  const problem = (text: string) => problems.push(text);
  const settled = await db.selectFrom('settlement_days').selectAll().where('day', '=', day).executeTakeFirst();
  // A versioned parameter's value in force on the day, else its configured default.
  const inForce = async (name: ParamName, configured: string): Promise<InForce> => {
    const [version] = await paramHistory(db, name, day, 1);
    return version ? { value: version.value, from: version.effectiveDay } : { value: configured, from: null };
  };
  const param = (key: keyof typeof EARN_PARAM_NAMES) => inForce(EARN_PARAM_NAMES[key], config.earn[key]);
  const rates = { output: await param('poolDailyOutputRate'), maxRate: await param('poolMaxDailyRate') };
  // Each product's daily rate in force, by the parameter its registry entry names.
  const dailyRates = new Map<Product, Promise<InForce | null>>();
  const dailyRateIn = async (product: Product): Promise<InForce | null> => {
    const name = productOf(product).rateParam;
    return name ? inForce(name, config.earn.dailyRates[product] ?? '0') : null;
  };
  const rateOf = (product: Product | null): Promise<InForce | null> => {
    if (!product) return Promise.resolve(null);
    if (!dailyRates.has(product)) dailyRates.set(product, dailyRateIn(product));
    return dailyRates.get(product) as Promise<InForce | null>;
  };
  const base = await param('coefficientBase');
  const launch = await param('launchDay');
  const cap = Number.parseInt((await param('coefficientMaxDays')).value, 10);
  const multiplier = (await param('powerMultiplier')).value;
  const team = await teamRules(db, config.team, day);
  const coefficient = coefficientOf(base.value, Math.min(daysBetween(launch.value, day), cap)).toString();

  const totals = new Map<string, bigint>();
  const staticAmounts = new Map<string, bigint>();
  let staticPower = 0n;
  let fixedLines = 0;
  let lines = 0;
  const checkRate = (line: Line, inForce: InForce, name = 'rate', fromName = 'rateFrom') => {
    if (line.inputs[name] !== inForce.value) problem(`${where(line)}: ${name} ${line.inputs[name]}, in force ${inForce.value}`);
    const from = line.inputs[fromName];
    if (from !== undefined && from !== inForce.from) problem(`${where(line)}: ${fromName} ${from}, in force from ${inForce.from}`);
  };

  const check = async (line: Line) => {
    lines++;
    totals.set(line.kind, (totals.get(line.kind) ?? 0n) + line.amount);
    if (!isIncomeKind(line.kind)) return problem(`${where(line)}: unknown kind`);
    try {
      const expected = recomputeIncome(line.kind, line.inputs);
      if (expected !== line.amount) problem(`${where(line)}: paid ${formatUnits(line.amount)}, recomputed ${formatUnits(expected)}`);
    } catch (error) {
      if (error instanceof MissingInput) return problem(`${where(line)}: input ${error.message} missing`);
      throw error;
    }
    if (line.kind === 'fixed' || line.kind === 'current') {
      if (line.kind === 'fixed') fixedLines++;
      const inForce = await rateOf(line.product);
      if (inForce) checkRate(line, inForce);
      else problem(`${where(line)}: its order's product ${line.product ?? 'is missing'} has no daily rate`);
    } else if (line.kind === 'static') {
      staticAmounts.set(`${line.user_id}|${line.order_id}`, line.amount);
      staticPower += BigInt(String(line.inputs.power));
      checkStatic(line);
    } else checkRebate(line, team, staticAmounts, problem);
  };
  const checkStatic = (line: Line) => {
    const expect = (name: string, value: string | null | undefined) => {
      if (value != null && String(line.inputs[name]) !== value) problem(`${where(line)}: ${name} ${line.inputs[name]}, recorded ${value}`);
    };
    expect('output', settled?.pool_output?.toString());
    expect('totalPower', settled?.total_power?.toString());
    expect('poolBalance', settled?.pool_balance?.toString());
    expect('coefficient', coefficient);
    expect('multiplier', multiplier);
    if (line.inputs.poolBalance != null) {
      checkRate(line, rates.output, 'outputRate', 'outputRateFrom');
      const output = recomputePoolOutput(line.inputs);
      if (output.toString() !== line.inputs.output) problem(`${where(line)}: output ${line.inputs.output}, recomputed ${output}`);
    }
    // Lines settled before the cap existed name no maximum rate; the others the one in force.
    if (line.inputs.maxRate != null) checkRate(line, rates.maxRate, 'maxRate', 'maxRateFrom');
  };

  // Static lines first: the rebates of the day are shares of them.
  for (const kinds of [['static', 'fixed', 'current'], ['rebate']]) {
    for await (const page of linesOf(db, day, kinds)) for (const line of page) await check(line);
  }

  if (settled?.total_power != null && (totals.get('static') ?? 0n) > 0n && staticPower !== settled.total_power) {
    problem(`static lines share power ${staticPower}, the day's total power is ${settled.total_power}`);
  }
  if (settled?.pool_output != null && (totals.get('static') ?? 0n) > settled.pool_output) {
    problem(`static lines pay ${totals.get('static')}, more than the day's output ${settled.pool_output}`);
  }
  // A day settled before it ended paid for time that had not passed (npm run settle refuses it now).
  if (settled && settled.started_at.getTime() < Date.parse(`${addDays(day, 1)}T00:00:00Z`)) {
    problem(`settled at ${settled.started_at.toISOString()}, before the day ended`);
  }
  await checkFixedComplete(db, day, fixedLines, problem);
  await checkLedgerEntries(db, day, totals, problem);

  return {
    day,
    status: settled?.status ?? null,
    lines,
    totals: Object.fromEntries([...totals].map(([kind, total]) => [kind, formatUnits(total)])),
    problems: problems.slice(0, MAX_LISTED),
    problemCount: problems.length,
  };
}

const where = (line: Line) => `${line.kind} line of order ${line.order_id} (user ${line.user_id})`;

function checkRebate(line: Line, team: TeamRules, statics: Map<string, bigint>, problem: (text: string) => void) {
  const generation = Number(line.inputs.generation);
  const rate = team.rebateRates[generation - 1]?.trim();
  if (line.inputs.rate !== undefined && line.inputs.rate !== rate) problem(`${where(line)}: rate ${line.inputs.rate}, in force ${rate}`);
  if (!(generation >= 1 && generation <= Number(line.inputs.level))) problem(`${where(line)}: generation ${generation} beyond level ${line.inputs.level}`);
  if (String(line.inputs.earner) === String(line.user_id)) problem(`${where(line)}: pays its own earner (a referral cycle)`);
  const source = statics.get(`${line.inputs.earner}|${line.order_id}`);
  if (source === undefined || source.toString() !== line.inputs.source) {
    problem(`${where(line)}: source ${line.inputs.source}, the earner's static line is ${source ?? 'missing'}`);
  }
}

/** The day's lines, a page at a time (only each static line's amount is kept, for the rebates). */
async function* linesOf(db: Db, day: string, kinds: string[]): AsyncGenerator<Line[]> {
  let after: [bigint, bigint, string] | undefined;
  for (;;) {
    let q = db
      .selectFrom('income')
      .select(['user_id', 'order_id', 'kind', 'amount', lineInputs('income').as('inputs')])
      .select(sql<Product | null>`(select o.product from orders o where o.user_id = income.user_id and o.id = income.order_id)`.as('product'))
      .where('day', '=', day)
      .where('kind', 'in', kinds);
    if (after) q = q.where(sql<boolean>`(user_id, order_id, kind) > (${after[0]}, ${after[1]}, ${after[2]})`);
    const rows = await q.orderBy('user_id').orderBy('order_id').orderBy('kind').limit(PAGE).execute();
    if (rows.length === 0) return;
    yield rows.map((r) => ({ ...r, inputs: r.inputs as IncomeInputs }));
    const last = rows.at(-1) as Line;
    after = [last.user_id, last.order_id, last.kind];
  }
}

/** Every fixed-term order running on the day has exactly one accrual line. */
async function checkFixedComplete(db: Db, day: string, lines: number, problem: (text: string) => void) {
  const { rows } = await sql<{ n: bigint }>`
    select count(*)::bigint as n from orders
    where product in ${productsIn('fixed')} and start_day <= ${day}::date and ${day}::date < matures_day`.execute(db);
  const running = Number(rows[0]?.n ?? 0n);
  if (running !== lines) problem(`${running} fixed-term orders ran on the day, ${lines} accrual lines`);
}

/** What the lines add up to is what left the paying system account, per kind. */
async function checkLedgerEntries(db: Db, day: string, totals: Map<string, bigint>, problem: (text: string) => void) {
  const { rows } = await sql<{ ref: string; paid: bigint }>`
    select e.ref, coalesce(-sum(p.amount), 0)::bigint as paid
    from journal_entries e join postings p on p.entry_id = e.id and p.user_id = ${SYSTEM}
    where e.kind = 'settlement' and e.ref like ${`settlement:${day}:%`}
      and e.ref in (${sql.join(['fixed', 'current', 'static', 'rebate'].map((k) => `settlement:${day}:${k}`))})
    group by e.ref`.execute(db);
  for (const kind of ['fixed', 'current', 'static', 'rebate']) {
    const paid = rows.find((r) => r.ref === `settlement:${day}:${kind}`)?.paid ?? 0n;
    const total = totals.get(kind) ?? 0n;
    if (paid !== total) problem(`${kind}: lines total ${formatUnits(total)}, the ledger paid ${formatUnits(paid)}`);
  }
}

/** Every day with settlement records, oldest first (optionally within [from, to]). */
export async function settledDays(db: Db, from?: string, to?: string): Promise<string[]> {
  let q = db.selectFrom('settlement_days').select(sql<string>`day::text`.as('day')).where('status', '=', 'done');
  if (from) q = q.where('day', '>=', from);
  if (to) q = q.where('day', '<=', to);
  return (await q.orderBy('day').execute()).map((r) => r.day);
}
