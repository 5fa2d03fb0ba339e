import { sql } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import type { AppContext } from '../context.ts';
import { rateLimitState } from '../http/security.ts';
import { lastChecks } from '../platform/healthChecks.ts';
import { addDays, utcDay } from '../platform/clock.ts';
import { payoutCoverage } from './console.ts';

/** Coverage sums every active fixed-term order: worked out at most this often, not per scrape. */
const COVERAGE_EVERY_MS = 10 * 60_000;
/** A database that has not answered `select 1` within this is down, as far as an alert goes. */
const PROBE_TIMEOUT_MS = 2_000;

const endOfDay = (day: string) => Date.parse(`${addDays(day, 1)}T00:00:00Z`) / 1000;

/**
 * The oldest day that is not settled: the first day after the first order's day (or the first
 * settled day) with no finished settlement, today if every day before it is done. A day settled
 * ahead of time does not hide an earlier one left unsettled.
 */
async function oldestUnsettledDay(ctx: AppContext): Promise<string> {
  const today = utcDay(ctx.clock.now());
  const { rows } = await sql<{ day: string | null }>`
    with first as (
      select coalesce(
        (select min(day) from settlement_days),
        (select (min(created_at) at time zone 'UTC')::date from orders)
      ) as day
    )
    select min(d)::date::text as day
    from first, generate_series(first.day, ${today}::date, interval '1 day') as d
    where not exists (select 1 from settlement_days s where s.day = d::date and s.status = 'done')`.execute(ctx.db);
  return rows[0]?.day ?? today;
}

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
    name: 'aic_settlement_oldest_unsettled_day_end_seconds',
    help: "End (UTC, unix seconds) of the oldest day not settled since the first order's; in the future while every ended day is settled",
    registers: [registry],
    collect: keepOnFailure(async () => endOfDay(await oldestUnsettledDay(ctx))),
  });

  // The last check wherever it ran (platform/healthChecks.ts). Before the first anywhere: 1, so a
  // process raises nothing for a check it has not seen, and AicChecksNotRun says none has run.
  // A scrape collects every gauge at once: the three below share one read while it is in flight.
  let reading: ReturnType<typeof lastChecks> | undefined;
  const checks = () =>
    (reading ??= lastChecks(ctx.db).finally(() => {
      reading = undefined;
    }));
  const lastCheck = (name: 'ledger' | 'tree', help: string) =>
    new Gauge({
      name: `aic_${name}_check_ok`,
      help,
      registers: [registry],
      collect: keepOnFailure(async () => ((await checks())[name]?.ok === false ? 0 : 1)),
    });
  lastCheck('ledger', 'The last ledger check, wherever it ran: 0 when an asset did not sum to zero or a user balance was negative, else 1 (also before any check)');
  lastCheck('tree', 'The last referral tree check, wherever it ran: 0 with a stale path, a cycle or a self-paid rebate, else 1 (also before any check)');
  new Gauge({
    name: 'aic_checks_last_run_seconds',
    help: 'When (unix seconds) the ledger and tree checks last ran anywhere; 0 if never',
    registers: [registry],
    collect: keepOnFailure(async () => {
      const last = Object.values(await checks());
      return last.length === 0 ? 0 : Math.min(...last.map((c) => c.checkedAt.getTime() / 1000));
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
