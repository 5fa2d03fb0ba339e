import { useLedgerCheck } from '../../api/operator.ts';
import { latestSettlementDay, serverToday } from './days.ts';

/** The server's today as far as the console knows (see serverToday), from the ledger check. */
export function useServerToday(serverNow: string | null): string {
  const { data } = useLedgerCheck();
  return serverToday({ lastSettled: latestSettlementDay(data?.days), serverNow });
}
