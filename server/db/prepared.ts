import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { sqlStateOf } from './failures.ts';

/**
 * A statement a process runs again and again outside a transaction (a holder's screen: the
 * session, the balances, the notices) is sent as a named prepared statement, so PostgreSQL keeps
 * its plan on the connection: planned afresh, such a read spent most of its database time in the
 * planner. Left as they are:
 * - statements inside a transaction (the settlement's steps, the writes): each part or day brings
 *   values a plan made for other values could serve badly, and they run too seldom to gain;
 * - statements without parameters, which may hold several commands;
 * - a text seen once in this process (a migration, a table named by its day), so one-off
 *   statements never take a connection's room.
 * A connection keeps at most PER_CONNECTION of them.
 */
const PER_CONNECTION = 200;
/** Texts remembered as seen once before they are forgotten, and named at most: bounds the memory of texts that vary. */
const COUNTED = 10_000;

/**
 * SQLSTATEs of a name the server connection does not know (26000) or knows already (42P05): a
 * pooler in transaction mode (PgBouncer before 1.21) sent the statement to another server
 * connection than the one that prepared it. Nothing ran: the statement is sent again unnamed.
 */
const LOST = new Set(['26000', '42P05']);

const LOST_WARNING =
  'a database connection lost a prepared statement (a pooler in transaction mode, such as PgBouncer before 1.21?): ' +
  'statements are sent unnamed from now on; set DATABASE_PREPARED_STATEMENTS=false to say so at start';

type Send = (config: unknown, values?: unknown, callback?: unknown) => Promise<pg.QueryResult>;

/** The names given to statements in this process, and the other texts seen once. */
export class PreparedStatements {
  /** Names unique to this process, so that behind a pooler one never runs another's statement. */
  private readonly prefix = `aic_${randomBytes(4).toString('hex')}_`;
  private readonly names = new Map<string, string>();
  private readonly seenOnce = new Set<string>();
  /** Set once a server connection lost a statement: from then on every statement is sent unnamed. */
  private lost = false;

  /** The name for `text`: once it has been seen before, else undefined (sent unnamed). */
  nameFor(text: string): string | undefined {
    const name = this.names.get(text);
    if (name) return name;
    if (this.names.size >= COUNTED) return undefined;
    if (!this.seenOnce.has(text)) {
      if (this.seenOnce.size >= COUNTED) this.seenOnce.clear();
      this.seenOnce.add(text);
      return undefined;
    }
    this.seenOnce.delete(text);
    const made = `${this.prefix}${this.names.size + 1}`;
    this.names.set(text, made);
    return made;
  }

  /**
   * Makes `client` send the statements `nameFor` names as prepared ones, while it is outside a
   * transaction and holds fewer than PER_CONNECTION; pg prepares each once per connection.
   */
  install(client: pg.PoolClient): void {
    const send = client.query.bind(client) as unknown as Send;
    const prepared = new Set<string>();
    const named = async (text: string, values: unknown[] | undefined) => {
      const name = !this.lost && client.getTransactionStatus() === 'I' && values?.length ? this.nameFor(text) : undefined;
      if (!name || (!prepared.has(name) && prepared.size >= PER_CONNECTION)) return send(text, values);
      prepared.add(name);
      try {
        return await send({ name, text, values });
      } catch (error) {
        if (!LOST.has(sqlStateOf(error) ?? '')) throw error;
        if (!this.lost) process.emitWarning(LOST_WARNING, 'DatabaseWarning');
        this.lost = true;
        return send(text, values);
      }
    };
    (client as unknown as { query: Send }).query = (config, values, callback) =>
      typeof config === 'string' && (values === undefined || Array.isArray(values)) && callback === undefined
        ? named(config, values as unknown[] | undefined)
        : send(config, values, callback);
  }
}
