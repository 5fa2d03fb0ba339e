import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TransferType } from '../../../../contract/wallet.ts';
import { OfflineReason } from '../../components/OfflineReason.tsx';
import { useOffline } from '../../lib/connectivity.ts';
import { isInbound, MOVE_TYPES, typeLabelKey } from './moves.ts';

/** Recharge, withdraw, transfer in and transfer out: each opens its form (not offline: it says why). */
export function WalletActions({ onOpen }: { onOpen: (type: TransferType) => void }) {
  const { t } = useTranslation();
  const offline = useOffline();
  const reason = useId();
  return (
    <>
      <div className="wallet-actions" role="group" aria-label={t('wallet.actions')} aria-describedby={offline ? reason : undefined}>
        {MOVE_TYPES.map((type) => (
          <button
            key={type}
            type="button"
            className={`wallet-action wallet-action--${isInbound(type) ? 'in' : 'out'}`}
            disabled={offline}
            onClick={() => onOpen(type)}
          >
            <span className="wallet-action__mark" aria-hidden="true">
              {isInbound(type) ? '↓' : '↑'}
            </span>
            {t(typeLabelKey(type))}
          </button>
        ))}
      </div>
      <OfflineReason id={reason} />
    </>
  );
}
