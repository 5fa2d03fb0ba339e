import { sql } from 'kysely';
import type { Db } from './connect.ts';

/**
 * Whether the primary the app writes to has the synchronous standby its configuration asks for.
 * Under Patroni's strict synchronous mode (deploy/patroni/aic-earn.yml) a primary left without
 * one keeps every commit waiting rather than acknowledge it from one host: a write sent then
 * would hang until the standby is back. With this reading the server refuses writes at once
 * (503, which the client retries with the same key) and /readyz says why.
 */
export type StandbyWatch = {
  /**
   * Synchronous standbys streaming to the primary at the last reading; -1 when the app cannot
   * tell or nothing asks for one (the embedded database, no synchronous_standby_names, a role
   * without pg_monitor, a reading that failed).
   */
  synchronousStandbys(): number;
  /** Reads it now. */
  refresh(): Promise<number>;
  /** Reads it every `intervalMs` until stopped. */
  start(intervalMs: number): () => void;
};

const UNKNOWN = -1;

export function watchStandby(db: Db, kind: 'pglite' | 'postgres'): StandbyWatch {
  let standbys = UNKNOWN;
  const refresh = async () => {
    standbys = kind === 'postgres' ? await readStandbys(db).catch(() => UNKNOWN) : UNKNOWN;
    return standbys;
  };
  return {
    synchronousStandbys: () => standbys,
    refresh,
    start: (intervalMs) => {
      const timer = setInterval(() => void refresh(), intervalMs);
      timer.unref();
      void refresh();
      return () => clearInterval(timer);
    },
  };
}

/** pg_stat_replication shows a standby's sync_state only to roles with pg_read_all_stats (pg_monitor). */
async function readStandbys(db: Db): Promise<number> {
  const { rows } = await sql<{ required: boolean; visible: boolean; standbys: number }>`
    select current_setting('synchronous_standby_names') <> '' as required,
      pg_has_role(current_user, 'pg_read_all_stats', 'usage') as visible,
      (select count(*) from pg_stat_replication where sync_state in ('sync', 'quorum'))::int as standbys`.execute(db);
  const row = rows[0];
  return row?.required && row.visible ? row.standbys : UNKNOWN;
}
