import { type Asset, type AssetData, INBOUND, type TransferType } from '../../../../contract/wallet.ts';

/** The four actions, in the order the screen shows them. */
export const MOVE_TYPES: readonly TransferType[] = ['recharge', 'withdraw', 'transfer_in', 'transfer_out'];

/** Recharge and transfer in come from the exchange; withdraw and transfer out go back to it. */
export const isInbound = (type: TransferType): boolean => INBOUND.includes(type);

export type Balance = AssetData['balances'][number];

export const balanceOf = (data: AssetData | undefined, asset: Asset): Balance | undefined =>
  data?.balances.find((b) => b.asset === asset);

/** What Max fills and the amount is checked against: the side the money leaves from. */
export const sourceBalance = (type: TransferType, balance: Balance | undefined): string | undefined =>
  balance && ((isInbound(type) ? balance.exchange : balance.available) ?? undefined);

export { typeLabelKey } from '../../../../contract/labels.ts';
