/**
 * Money is an exact integer of 1e-8 units (bigint). It becomes a decimal string only at the
 * edges: the wire, the database driver, the screen. No float ever touches an amount.
 */
export type Units = bigint & { readonly __units: unique symbol };

const DECIMALS = 8;
export const UNIT = 100_000_000n;
/** The largest amount accepted from outside: 10^10 whole tokens (1e18 units fit a bigint column). */
export const MAX_UNITS = 10n ** 10n * UNIT;

const units = (value: bigint): Units => value as Units;

type ParseFailure = 'empty' | 'format' | 'decimals' | 'negative' | 'too_large';
export type ParseResult = { ok: true; value: Units } | { ok: false; reason: ParseFailure };

const DECIMAL_RE = /^(\d+)(?:\.(\d*))?$/;

/** Parses a user or wire decimal string ("12.5") into units. No exponents, signs, spaces or NaN. */
export function parseAmount(input: unknown): ParseResult {
  if (input === undefined || input === null) return { ok: false, reason: 'empty' };
  if (typeof input !== 'string') return { ok: false, reason: 'format' };
  const text = input.trim();
  if (text === '') return { ok: false, reason: 'empty' };
  if (text.startsWith('-')) return { ok: false, reason: 'negative' };
  if (text.length > 40) return { ok: false, reason: 'too_large' };
  const match = DECIMAL_RE.exec(text);
  if (!match) return { ok: false, reason: 'format' };
  const whole = match[1] as string;
  const fraction = match[2] ?? '';
  if (fraction.length > DECIMALS) return { ok: false, reason: 'decimals' };
  const value = BigInt(whole) * UNIT + BigInt(fraction.padEnd(DECIMALS, '0') || '0');
  if (value > MAX_UNITS) return { ok: false, reason: 'too_large' };
  return { ok: true, value: units(value) };
}

/** Units to the canonical wire string: no trailing zeros, "0" for zero, "-" for negatives. */
export function formatUnits(value: bigint): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / UNIT;
  const fraction = (abs % UNIT).toString().padStart(DECIMALS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Amount times a decimal rate given as a string ("0.001"), truncated toward zero at 1e-8. */
export function mulRate(amount: bigint, rate: string): Units {
  const parsed = parseRate(rate);
  return units((amount * parsed.numerator) / parsed.denominator);
}

/** A non-negative decimal rate string as an exact fraction. */
export function parseRate(rate: string): { numerator: bigint; denominator: bigint } {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(rate.trim());
  if (!match) throw new Error(`not a decimal rate: ${rate}`);
  const fraction = match[2] ?? '';
  return {
    numerator: BigInt((match[1] as string) + fraction),
    denominator: 10n ** BigInt(fraction.length),
  };
}
