import type { MoveBody, TransferRecord, TransferType } from '../../../../contract/wallet.ts';
import { MONEY_QUERIES } from '../../api/queries.ts';
import { useIdempotentAction } from '../../api/useIdempotentAction.ts';
import { postMove } from '../../api/wallet.ts';

/**
 * Sends one wallet move. A retry of the very same move (type, asset, amount) after an
 * unsettled failure reuses its Idempotency-Key (see useIdempotentAction).
 */
export function useMove(type: TransferType) {
  return useIdempotentAction<MoveBody, TransferRecord>({
    run: (body, key) => postMove(type, body, key),
    fingerprint: (body) => `${type}|${body.asset}|${body.amount}`,
    // Settled or not, balances may have changed, and not only the wallet's own screen shows them
    // (the centre's Available, My's holding).
    invalidate: MONEY_QUERIES,
  });
}
