import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Clock } from './clock.ts';

/**
 * The demo clock, one for every process: its offset from the real time lives in the database
 * (`clock_offset`), so an operator's advance on one process moves every process's clock, and two
 * processes never stamp the same moment with different days. Each process keeps the offset it
 * last read and reads it again every `refreshMs`; its own advances are added in the database, so
 * two advances at once both count.
 */
export type SharedClock = Clock & { stop(): void };

type Stored = { offset: number; version: bigint };

const read = async (db: Db): Promise<Stored | undefined> => {
  const row = await db.selectFrom('clock_offset').select(['offset_ms', 'version']).where('id', '=', 1).executeTakeFirst();
  return row ? { offset: Number(row.offset_ms), version: BigInt(row.version) } : undefined;
};

/** The shared offset in milliseconds (0 when no process has moved the clock). */
export async function loadClockOffset(db: Db): Promise<number> {
  return (await read(db))?.offset ?? 0;
}

/** Writes the offset (`first` when no process has yet, else `next`), answering what is stored. */
async function store(db: Db, first: number, next: RawBuilder<unknown>): Promise<Stored> {
  const { rows } = await sql<{ offset_ms: string; version: string }>`
    insert into clock_offset (id, offset_ms) values (1, ${first})
    on conflict (id) do update set offset_ms = ${next}, version = clock_offset.version + 1, set_at = now()
    returning offset_ms::text, version::text`.execute(db);
  return { offset: Number(rows[0]?.offset_ms), version: BigInt(rows[0]?.version ?? 0) };
}

export async function sharedClock(db: Db, options: { start?: Date; refreshMs?: number } = {}): Promise<SharedClock> {
  // The first process to start with CLOCK_START sets the offset; later ones, and restarts, keep it.
  if (options.start) {
    const offset = BigInt(options.start.getTime() - Date.now());
    await db.insertInto('clock_offset').values({ offset_ms: offset }).onConflict((oc) => oc.column('id').doNothing()).execute();
  }
  let confirmed: Stored = (await read(db)) ?? { offset: 0, version: 0n };
  // Advances this process has sent and not yet seen applied: part of its clock meanwhile.
  let pending = 0;
  let writes: Promise<void> = Promise.resolve();
  let failed: unknown;
  const learn = (stored: Stored | undefined) => {
    if (stored && stored.version > confirmed.version) confirmed = stored;
  };
  const write = (change: () => Promise<Stored>, delta: number) => {
    pending += delta;
    writes = writes.then(async () => {
      try {
        learn(await change());
      } catch (error) {
        failed = error;
      } finally {
        pending -= delta;
      }
    });
  };
  const refresh = setInterval(() => {
    // A read that crosses one of this process's own writes could count that write twice.
    if (pending === 0) read(db).then((stored) => pending === 0 && learn(stored), () => {});
  }, options.refreshMs ?? 1000);
  refresh.unref();

  return {
    now: () => new Date(Date.now() + confirmed.offset + pending),
    advance(ms) {
      write(() => store(db, ms, sql`clock_offset.offset_ms + ${ms}`), ms);
    },
    set(date) {
      const target = date.getTime() - Date.now();
      write(() => store(db, target, sql`${target}`), target - confirmed.offset - pending);
    },
    async flush() {
      await writes;
      const error = failed;
      failed = undefined;
      if (error) throw error;
    },
    stop: () => clearInterval(refresh),
  };
}
