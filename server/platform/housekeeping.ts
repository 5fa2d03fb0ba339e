import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { DAY_MS } from './clock.ts';

/** How long a POST's stored answer is kept: a retry after that runs as a new request. */
const IDEMPOTENCY_RETENTION_DAYS = 7;

/**
 * Removes what has expired: idempotency answers past their retention, used or expired sign-in
 * states, and the embedded provider's expired records. Sessions stay (they are the history of
 * who signed in); nothing that holds money is touched.
 */
export async function purgeExpired(ctx: AppContext): Promise<{ idempotency: number; states: number; provider: number }> {
  const now = ctx.clock.now();
  const keys = await ctx.db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', new Date(now.getTime() - IDEMPOTENCY_RETENTION_DAYS * DAY_MS))
    .executeTakeFirst();
  const states = await ctx.db
    .deleteFrom('oauth_states')
    .where((eb) => eb.or([eb('expires_at', '<', now), eb('consumed_at', 'is not', null)]))
    .executeTakeFirst();
  // The provider keeps its own times, in real time.
  const provider = await sql`delete from provider_store where expires_at < now()`.execute(ctx.db);
  return {
    idempotency: Number(keys.numDeletedRows),
    states: Number(states.numDeletedRows),
    provider: Number(provider.numAffectedRows ?? 0n),
  };
}
