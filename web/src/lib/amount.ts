import { formatUnits, parseAmount, type Units } from '../../../contract/money.ts';
import { formatFigure } from './format.ts';

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

/** An amount's own form: required, a plain decimal above zero, at most 8 decimals. */
export function checkEntered(input: string): AmountCheck {
  const parsed = parseAmount(input);
  if (!parsed.ok) return { ok: false, message: PARSE_MESSAGES[parsed.reason] };
  if (parsed.value <= 0n) return { ok: false, message: 'err.amountInvalid' };
  return { ok: true, value: parsed.value, amount: formatUnits(parsed.value) };
}

/**
 * The wallet amount rules (PRODUCT.md, Asset wallet), checked before anything is sent: the
 * amount's own form (checkEntered), at least the minimum, and not above the balance the money
 * leaves from. Exact bigint units, never floats.
 */
export function checkAmount(
  input: string,
  balance: string | undefined,
  minimum?: string,
  /** The message below the minimum (withdrawals and transfers out: the server's err.belowTransferMinimum). */
  belowMessage = 'wallet.belowMinimum',
): AmountCheck {
  const entered = checkEntered(input);
  if (!entered.ok) return entered;
  const least = unitsOf(minimum);
  if (least !== null && entered.value < least) {
    return { ok: false, message: belowMessage, values: { amount: formatFigure(formatUnits(least)) } };
  }
  const available = unitsOf(balance) ?? 0n;
  if (entered.value > available) return { ok: false, message: 'err.insufficientBalance' };
  return entered;
}

/** The whole balance as a plain decimal, for the Max button. */
export const maxAmount = (balance: string | undefined): string => formatUnits(unitsOf(balance) ?? 0n);

/**
 * Checks an amount against the figures on screen, but never refuses for the balance on those
 * alone: a cached balance may predate a move made elsewhere, so such a refusal re-reads the
 * figures from the server and the fresh ones decide. Answers the verdict and the figures it
 * was reached on, or null when the re-read failed (that call has already said why).
 */
export async function checkOnFreshBalance<F>(
  check: (figures: F) => AmountCheck,
  cached: F,
  reread: () => Promise<F>,
): Promise<{ check: AmountCheck; figures: F } | null> {
  const first = check(cached);
  if (first.ok || first.message !== 'err.insufficientBalance') return { check: first, figures: cached };
  let fresh: F;
  try {
    fresh = await reread();
  } catch {
    return null;
  }
  return { check: check(fresh), figures: fresh };
}

/** The figures an amount is checked against, as the server sent them. */
export type AmountFigures = { balance?: string | undefined; minimum?: string | undefined; quota?: string | undefined };

/** Which figure each refusal is about; the others are about the input itself. */
const FIGURE_OF: Readonly<Record<string, keyof AmountFigures>> = {
  'err.insufficientBalance': 'balance',
  'err.dailyQuota': 'quota',
  'wallet.belowMinimum': 'minimum',
  'err.belowTransferMinimum': 'minimum',
  'earn.belowMinimum': 'minimum',
};

/** A refusal shown under an amount: its message, and the figure it was about when checked. */
export type ShownRefusal = { message: string; values?: Record<string, string>; figure: string | null };

/** The refusal to show for a failed check reached on `figures`. */
export function refusalOf(check: { message: string; values?: Record<string, string> }, figures: AmountFigures): ShownRefusal {
  const name = FIGURE_OF[check.message];
  return { message: check.message, ...(check.values ? { values: check.values } : {}), figure: name ? (figures[name] ?? '') : null };
}

/**
 * Whether a shown refusal still holds with the figures now on screen: one about a figure (the
 * balance, the quota, the minimum) goes when that figure changes, as it may no longer apply;
 * one about the input's own form stays until the input is edited.
 */
export function refusalStands(refusal: ShownRefusal, figures: AmountFigures): boolean {
  const name = FIGURE_OF[refusal.message];
  return !name || refusal.figure === (figures[name] ?? '');
}
