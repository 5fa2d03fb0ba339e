import { formatUnits, parseRate } from './money.ts';

/**
 * How each income line is computed, from the inputs stored with it. One implementation, used
 * by the web app ("how was this computed") and the settlement verifier, written apart from
 * the settlement SQL so that each checks the other. Amounts are integers of 1e-8 (as strings
 * in the inputs); rates are decimal strings; every division truncates toward zero.
 */
export type IncomeKind = 'fixed' | 'current' | 'static' | 'rebate';
export type IncomeInputs = Record<string, string | number | boolean | null>;

/** The scale of the 360-day coefficient: c is stored as an integer of 1e-8. */
export const COEFFICIENT_SCALE = 100_000_000n;

export class MissingInput extends Error {}

const big = (inputs: IncomeInputs, name: string): bigint => {
  const value = inputs[name];
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) throw new MissingInput(name);
  return BigInt(value);
};

const rate = (inputs: IncomeInputs, name: string) => {
  const value = inputs[name];
  if (typeof value !== 'string') throw new MissingInput(name);
  return { text: value, ...parseRate(value) };
};

/** a × b ÷ c, truncated toward zero (the operands are never negative here). */
export const mulDiv = (a: bigint, b: bigint, c: bigint): bigint => (c === 0n ? 0n : (a * b) / c);

/** The amount a line's inputs give. Throws MissingInput when the inputs lack a term. */
export function recomputeIncome(kind: IncomeKind, inputs: IncomeInputs): bigint {
  switch (kind) {
    case 'fixed': {
      const r = rate(inputs, 'rate');
      return mulDiv(big(inputs, 'principal'), r.numerator, r.denominator);
    }
    case 'current': {
      const r = rate(inputs, 'rate');
      return mulDiv(big(inputs, 'holding'), r.numerator, r.denominator);
    }
    case 'static':
      return mulDiv(big(inputs, 'output'), big(inputs, 'power'), big(inputs, 'totalPower'));
    case 'rebate': {
      const r = rate(inputs, 'rate');
      return mulDiv(big(inputs, 'source'), r.numerator, r.denominator);
    }
  }
}

/** The day's output of the supercomputing pool: its balance × the output rate. */
export function recomputePoolOutput(inputs: IncomeInputs): bigint {
  const r = rate(inputs, 'outputRate');
  return mulDiv(big(inputs, 'poolBalance'), r.numerator, r.denominator);
}

/** Power a reinvested 360-day share adds: multiplier × amount × c. */
export const reinvestedPower = (multiplier: bigint, amount: bigint, coefficientScaled: bigint): bigint =>
  (multiplier * amount * coefficientScaled) / COEFFICIENT_SCALE;

/** c = base^N truncated to 1e-8, as an integer of 1e-8. */
export function coefficientOf(base: string, days: number): bigint {
  const { numerator, denominator } = parseRate(base);
  const n = BigInt(days);
  return (numerator ** n * COEFFICIENT_SCALE) / denominator ** n;
}

const scaled = (value: bigint) => {
  const fraction = (value % COEFFICIENT_SCALE).toString().padStart(8, '0').replace(/0+$/, '');
  return `${value / COEFFICIENT_SCALE}${fraction ? `.${fraction}` : ''}`;
};

/**
 * A line as a formula with its numbers, for people: the message key naming the formula and
 * the expression with the values put in ("1000 × 0.003 = 3").
 */
export type IncomeExplanation = { key: `income.formula.${IncomeKind}`; expression: string; values: Record<string, string> };

export function explainIncome(kind: IncomeKind, inputs: IncomeInputs, amount: string): IncomeExplanation {
  const units = (name: string) => formatUnits(big(inputs, name));
  const text = (name: string) => String(inputs[name] ?? '');
  const key = `income.formula.${kind}` as const;
  switch (kind) {
    case 'fixed':
      return { key, values: { principal: units('principal'), rate: text('rate'), rateFrom: text('rateFrom') }, expression: `${units('principal')} × ${text('rate')} = ${amount}` };
    case 'current':
      return { key, values: { holding: units('holding'), rate: text('rate'), cycle: text('cycle'), rateFrom: text('rateFrom') }, expression: `${units('holding')} × ${text('rate')} = ${amount}` };
    case 'static': {
      const c = inputs.coefficient === undefined ? '' : scaled(big(inputs, 'coefficient'));
      return {
        key,
        values: { output: units('output'), power: units('power'), totalPower: units('totalPower'), coefficient: c, reinvest: text('reinvest') },
        expression: `${units('output')} × ${units('power')} ÷ ${units('totalPower')} = ${amount}`,
      };
    }
    case 'rebate':
      return {
        key,
        values: { source: units('source'), rate: text('rate'), generation: text('generation'), level: text('level') },
        expression: `${units('source')} × ${text('rate')} = ${amount}`,
      };
  }
}

export const isIncomeKind = (kind: string): kind is IncomeKind => ['fixed', 'current', 'static', 'rebate'].includes(kind);
