import { formatUnits, parseAmount, type Units } from '../../../contract/money.ts';

/** A translated message key and its values, or the amount to send. */
export type AmountCheck =
  | { ok: true; value: Units; amount: string }
  | { ok: false; message: string; values?: Record<string, string> };

const PARSE_MESSAGES = {
  empty: 'err.amountRequired',
  format: 'err.amountInvalid',
  negative: 'err.amountInvalid',
  too_large: 'err.amountInvalid',
  decimals: 'err.amountDecimals',
} as const;

/** A balance from the wire as units; a missing or malformed one counts as nothing. */
export function unitsOf(value: string | undefined): Units | null {
  const parsed = parseAmount(value ?? '');
  return parsed.ok ? parsed.value : null;
}

/**
 * The wallet amount rules (PRODUCT.md, Asset wallet), checked before anything is sent:
 * required, a plain decimal above zero, at most 8 decimals, at least the minimum, and not
 * above the balance the money leaves from. Exact bigint units, never floats.
 */
export function checkAmount(
  input: string,
  balance: string | undefined,
  minimum?: string,
  /** The message below the minimum (withdrawals and transfers out: the server's err.belowTransferMinimum). */
  belowMessage = 'wallet.belowMinimum',
): AmountCheck {
  const parsed = parseAmount(input);
  if (!parsed.ok) return { ok: false, message: PARSE_MESSAGES[parsed.reason] };
  if (parsed.value <= 0n) return { ok: false, message: 'err.amountInvalid' };
  const least = unitsOf(minimum);
  if (least !== null && parsed.value < least) {
    return { ok: false, message: belowMessage, values: { amount: formatUnits(least) } };
  }
  const available = unitsOf(balance) ?? 0n;
  if (parsed.value > available) return { ok: false, message: 'err.insufficientBalance' };
  return { ok: true, value: parsed.value, amount: formatUnits(parsed.value) };
}

/** The whole balance as a plain decimal, for the Max button. */
export const maxAmount = (balance: string | undefined): string => formatUnits(unitsOf(balance) ?? 0n);
