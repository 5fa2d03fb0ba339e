import { sql } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import type { AppContext } from '../context.ts';
import { rateLimitState } from '../http/security.ts';
import { payoutCoverage } from './console.ts';

/** Coverage sums every active fixed-term order: worked out at most this often, not per scrape. */
const COVERAGE_EVERY_MS = 10 * 60_000;
/** A database that has not answered `select 1` within this is down, as far as an alert goes. */
const PROBE_TIMEOUT_MS = 2_000;

const endOfDay = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000 + 86_400;

/**
 * The figures the alerting rules (deploy/prometheus/aic-earn-rules.yml) watch, read from the
 * database when Prometheus scrapes: whether it answers, the last settled day, the days waiting
 * for funds, and how many days of fixed-term interest the treasury holds.
 */
export function installHealthGauges(registry: Registry, ctx: AppContext): void {
  // A figure the database cannot give now keeps its last value: /metrics still answers (with
  // aic_database_up 0), or no alert could fire while the database is down.
  const keepOnFailure = (read: () => Promise<number>) =>
    async function collect(this: Gauge) {
      try {
        this.set(await read());
      } catch {
        // Kept.
      }
    };

  const up = async () => {
    const probe = sql`select 1`.execute(ctx.db).then(() => 1, () => 0);
    const late = new Promise<number>((resolve) => setTimeout(() => resolve(0), PROBE_TIMEOUT_MS).unref());
    return Promise.race([probe, late]);
  };

  new Gauge({
    name: 'aic_database_up',
    help: '1 when the database answered select 1 within 2 s at this scrape, else 0',
    registers: [registry],
    async collect() {
      this.set(await up());
    },
  });

  new Gauge({
    name: 'aic_settlement_last_done_day_end_seconds',
    help: 'End (UTC, unix seconds) of the last settled day; with nothing to settle yet, of the day before the first order, or now',
    registers: [registry],
    collect: keepOnFailure(async () => {
      const { rows } = await sql<{ done: string | null; first: string | null }>`
        select (select max(day)::text from settlement_days where status = 'done') as done,
          (select ((min(created_at) at time zone 'UTC')::date - 1)::text from orders) as first`.execute(ctx.db);
      const day = rows[0]?.done ?? rows[0]?.first;
      return day ? endOfDay(day) : ctx.clock.now().getTime() / 1000;
    }),
  });

  new Gauge({
    name: 'aic_reconciliation_open_differences',
    help: 'Differences between the platform and the exchange (server/wallet/reconcile.ts) no operator has resolved',
    registers: [registry],
    collect: keepOnFailure(async () => {
      const { rows } = await sql<{ n: string }>`
        select count(*)::text as n from reconciliation_differences where resolved_at is null`.execute(ctx.db);
      return Number(rows[0]?.n ?? 0);
    }),
  });

  new Gauge({
    name: 'aic_rate_limits_local',
    help: '1 while Redis cannot be reached and this process counts the rate limits on its own, else 0',
    registers: [registry],
    collect() {
      this.set(rateLimitState.local ? 1 : 0);
    },
  });

  new Gauge({
    name: 'aic_fundings_last_day',
    help: 'Fundings of the treasury or the pool asked for or approved in the last 24 hours (every one raises AicFunding)',
    registers: [registry],
    collect: keepOnFailure(async () => {
      const since = new Date(ctx.clock.now().getTime() - 86_400_000);
      const { rows } = await sql<{ n: string }>`
        select count(*)::text as n from transfers
        where type = 'funding' and (created_at >= ${since} or reviewed_at >= ${since})`.execute(ctx.db);
      return Number(rows[0]?.n ?? 0);
    }),
  });

  new Gauge({
    name: 'aic_transfers_unfinished_oldest_seconds',
    help: 'Age of the oldest transfer still waiting for the exchange (requested, sending or unknown); 0 when none',
    registers: [registry],
    collect: keepOnFailure(async () => {
      const { rows } = await sql<{ at: Date | null }>`
        select min(created_at) as at from transfers where status in ('requested', 'sending', 'unknown')`.execute(ctx.db);
      const at = rows[0]?.at;
      return at ? Math.max(0, (ctx.clock.now().getTime() - at.getTime()) / 1000) : 0;
    }),
  });

  new Gauge({
    name: 'aic_settlement_waiting_funds_days',
    help: 'Days whose settlement waits for the treasury or the pool to be funded',
    registers: [registry],
    collect: keepOnFailure(async () => {
      const { rows } = await sql<{ n: bigint }>`
        select count(*) as n from settlement_days where status = 'waiting_funds'`.execute(ctx.db);
      return Number(rows[0]?.n ?? 0n);
    }),
  });

  let coverage = { at: 0, days: Number.POSITIVE_INFINITY };
  new Gauge({
    name: 'aic_treasury_coverage_days',
    help: "Days of fixed-term interest at tomorrow's rate the treasury holds (+Inf with none due)",
    registers: [registry],
    collect: keepOnFailure(async () => {
      if (Date.now() - coverage.at > COVERAGE_EVERY_MS) {
        const { treasury, fixedNextDay } = await payoutCoverage(ctx);
        coverage = { at: Date.now(), days: fixedNextDay > 0n ? Number(treasury / fixedNextDay) : Number.POSITIVE_INFINITY };
      }
      return coverage.days;
    }),
  });
}
