import type { TFunction } from 'i18next';
import {
  type Asset,
  type AssetData,
  type ExchangeBalancesData,
  INBOUND,
  type TransferStatus,
  type TransferType,
} from '../../../../contract/wallet.ts';

/** The four actions, in the order the screen shows them. */
export const MOVE_TYPES: readonly TransferType[] = ['recharge', 'withdraw', 'transfer_in', 'transfer_out'];

/** Recharge and transfer in come from the exchange; withdraw and transfer out go back to it. */
export const isInbound = (type: TransferType): boolean => INBOUND.includes(type);

export type Balance = AssetData['balances'][number];

const balanceOf = (data: AssetData | undefined, asset: Asset): Balance | undefined =>
  data?.balances.find((b) => b.asset === asset);

/**
 * The holder's balance at the exchange as far as the screen knows it: the exchange line's own
 * answer, else getAsset's when the server had a fresh copy. Null: the exchange cannot say right
 * now; undefined: not known yet (loading).
 */
export const exchangeFigure = (
  asset: Asset,
  data: AssetData | undefined,
  atExchange: ExchangeBalancesData | undefined,
): string | null | undefined => {
  const answered = atExchange?.balances.find((b) => b.asset === asset);
  if (answered) return answered.exchange;
  return data?.exchangeFresh ? (balanceOf(data, asset)?.exchange ?? null) : undefined;
};

/** What Max fills and the amount is checked against: the side the money leaves from. */
export const sourceBalance = (
  type: TransferType,
  asset: Asset,
  data: AssetData | undefined,
  atExchange: ExchangeBalancesData | undefined,
): string | undefined =>
  (isInbound(type) ? exchangeFigure(asset, data, atExchange) : balanceOf(data, asset)?.available) ?? undefined;

export { typeLabelKey } from '../../../../contract/labels.ts';

/** The colour of a transfer's status tag (a holder's move or an operator's funding). */
export const STATUS_COLORS: Record<TransferStatus, 'warning' | 'success' | 'danger' | 'primary'> = {
  requested: 'primary',
  under_review: 'warning',
  sending: 'primary',
  unknown: 'warning',
  success: 'success',
  failure: 'danger',
};

/** Why a transfer failed: the exchange's refusals are keys (`exchange.…`), an operator's reason their own text. */
export const reasonText = (t: TFunction, reason: string): string =>
  reason.startsWith('exchange.') ? t(`wallet.reasons.${reason}`) : reason;
