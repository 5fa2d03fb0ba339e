import { parseAmount, type Units } from '../../contract/money.ts';
import { AppError } from './errors.ts';

/** An amount from a request: exact units, or a clear refusal that changes nothing. */
export function amountFrom(input: unknown): Units {
  const result = parseAmount(input);
  if (!result.ok) {
    if (result.reason === 'empty') throw new AppError('AMOUNT_REQUIRED');
    if (result.reason === 'decimals') throw new AppError('AMOUNT_DECIMALS');
    throw new AppError('AMOUNT_INVALID', result.reason);
  }
  if (result.value <= 0n) throw new AppError('AMOUNT_INVALID', 'not above zero');
  return result.value;
}
