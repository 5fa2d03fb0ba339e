import { useTranslation } from 'react-i18next';
import type { TransferType } from '../../../../contract/wallet.ts';
import { isInbound, MOVE_TYPES, typeLabelKey } from './moves.ts';

/** Recharge, withdraw, transfer in and transfer out: each opens its form. */
export function WalletActions({ onOpen }: { onOpen: (type: TransferType) => void }) {
  const { t } = useTranslation();
  return (
    <div className="wallet-actions" role="group" aria-label={t('wallet.actions')}>
      {MOVE_TYPES.map((type) => (
        <button
          key={type}
          type="button"
          className={`wallet-action wallet-action--${isInbound(type) ? 'in' : 'out'}`}
          onClick={() => onOpen(type)}
        >
          <span className="wallet-action__mark" aria-hidden="true">
            {isInbound(type) ? '↓' : '↑'}
          </span>
          {t(typeLabelKey(type))}
        </button>
      ))}
    </div>
  );
}
