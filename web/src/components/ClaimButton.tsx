import Button from 'antd-mobile/es/components/button';
import { useOffline } from '../lib/connectivity.ts';
import { OfflineReason } from './OfflineReason.tsx';

/**
 * A claim's button: busy while the claim is sent, and off while nothing is claimable or the
 * device is offline (then saying why underneath).
 */
export function ClaimButton({ label, claimable, sending, onClaim }: { label: string; claimable: bigint; sending: boolean; onClaim: () => void }) {
  const offline = useOffline();
  return (
    <>
      <Button color="primary" size="middle" loading={sending} disabled={sending || offline || claimable <= 0n} onClick={onClaim}>
        {label}
      </Button>
      <OfflineReason />
    </>
  );
}
