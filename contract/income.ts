import { formatUnits, mulRate, parseRate, UNIT } from './money.ts';

/**
 * How each income line is computed, from the inputs stored with it. One implementation, used
 * by the web app ("how was this computed") and the settlement verifier, written apart from
 * the settlement SQL so that each checks the other. Amounts are integers of 1e-8 (as strings
 * in the inputs); rates are decimal strings; every division truncates toward zero.
 */
export type IncomeKind = 'fixed' | 'current' | 'static' | 'rebate';
export type IncomeInputs = Record<string, string | number | boolean | null>;

export class MissingInput extends Error {}

const big = (inputs: IncomeInputs, name: string): bigint => {
  const value = inputs[name];
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) throw new MissingInput(name);
  return BigInt(value);
};

const rate = (inputs: IncomeInputs, name: string): string => {
  const value = inputs[name];
  if (typeof value !== 'string') throw new MissingInput(name);
  return value;
};

/** The amount a line's inputs give. Throws MissingInput when the inputs lack a term. */
export function recomputeIncome(kind: IncomeKind, inputs: IncomeInputs): bigint {
  switch (kind) {
    case 'fixed':
      return mulRate(big(inputs, 'principal'), rate(inputs, 'rate'));
    case 'current':
      return mulRate(big(inputs, 'holding'), rate(inputs, 'rate'));
    case 'static': {
      const totalPower = big(inputs, 'totalPower');
      const share = totalPower === 0n ? 0n : (big(inputs, 'output') * big(inputs, 'power')) / totalPower;
      const cap = staticCap(inputs);
      return cap !== null && cap < share ? cap : share;
    }
    case 'rebate':
      return mulRate(big(inputs, 'source'), rate(inputs, 'rate'));
  }
}

/**
 * The most a 360-day line may pay: the order's principal × the day's maximum daily rate. Null
 * for a line settled before the cap existed, whose inputs name neither.
 */
function staticCap(inputs: IncomeInputs): bigint | null {
  if (inputs.maxRate == null && inputs.principal == null) return null;
  return mulRate(big(inputs, 'principal'), rate(inputs, 'maxRate'));
}

/** The day's output of the supercomputing pool: its balance × the output rate. */
export function recomputePoolOutput(inputs: IncomeInputs): bigint {
  return mulRate(big(inputs, 'poolBalance'), rate(inputs, 'outputRate'));
}

/** c = base^N truncated to 1e-8, as an integer of 1e-8. */
export function coefficientOf(base: string, days: number): bigint {
  const { numerator, denominator } = parseRate(base);
  const n = BigInt(days);
  return (numerator ** n * UNIT) / denominator ** n;
}

/**
 * A line as a formula with its numbers, for people: the message key naming the formula and
 * the expression with the values put in ("1000 × 0.003 = 3").
 */
export type IncomeExplanation = { key: `income.formula.${IncomeKind | 'staticCapped'}`; expression: string; values: Record<string, string> };

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
      // c is kept as an integer of 1e-8, the same scale as amounts.
      const c = inputs.coefficient === undefined ? '' : formatUnits(big(inputs, 'coefficient'));
      const values = { output: units('output'), power: units('power'), totalPower: units('totalPower'), coefficient: c, reinvest: text('reinvest') };
      const share = `${units('output')} × ${units('power')} ÷ ${units('totalPower')}`;
      if (staticCap(inputs) === null) return { key, values, expression: `${share} = ${amount}` };
      const cap = `${units('principal')} × ${text('maxRate')}`;
      return {
        key: 'income.formula.staticCapped',
        values: { ...values, principal: units('principal'), maxRate: text('maxRate') },
        expression: `min(${share}, ${cap}) = ${amount}`,
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
