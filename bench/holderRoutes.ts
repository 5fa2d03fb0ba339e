/**
 * The holder-facing GETs bench/api.ts measures, read from the server's own OpenAPI document
 * rather than listed by hand, so a route added to the API is measured the day it is added: every
 * GET that asks for the bearer and is not an operator's. Where a route needs query parameters,
 * QUERIES below supplies them; a route that needs one the bench does not know stops the bench,
 * its path named, instead of being left out.
 */
import { PATHS } from '../contract/paths.ts';
import { FIRST_DAY } from './population.ts';

/** What a holder's queries are made of, one entry per session holder (by index). */
export type HolderValues = {
  /** An order of the holder's. */
  orderIds: string[];
  /** An invitation code that is not the holder's own (the next session holder's). */
  inviteCodes: string[];
};

/** One way of calling a route: its label beside the path, and each holder's query string. */
type Variant = { label?: string; query: (values: HolderValues, holder: number) => string };

/** A holder GET the bench measures, with the query of each holder. */
export type HolderGet = { path: string; label?: string; query?: (holder: number) => string; example: string };

/** The settled days' month on the bench's platforms. */
const SETTLED_MONTH = FIRST_DAY.slice(0, 7);

const fixed = (query: string): Variant => ({ query: () => query });

/**
 * The query of each route that takes one: required parameters (an order id, an invitation code)
 * and, for the lists, the page a holder's screen asks for. The monthly statement twice: the month
 * a holder opens (the server's, with the buys of the runs before it) and the settled days' month.
 */
const QUERIES: Record<string, Variant[]> = {
  [PATHS.product]: [{ query: (values, i) => `id=${values.orderIds[i] ?? ''}` }],
  [PATHS.inviter]: [{ query: (values, i) => `code=${values.inviteCodes[i] ?? ''}` }],
  [PATHS.statementMonthly]: [
    { label: 'this month', query: () => 'limit=20' },
    { label: 'settled month', query: () => `month=${SETTLED_MONTH}&limit=20` },
  ],
  [PATHS.inviteRecords]: [fixed('limit=20')],
  [PATHS.rewardLog]: [fixed('limit=20')],
  [PATHS.notifications]: [fixed('limit=20')],
};

type Parameter = { in: string; name: string; required?: boolean };
type Operation = { security?: Record<string, unknown>[]; parameters?: Parameter[] };
type Document = { paths: Record<string, Record<string, Operation>> };

/** Paths whose GETs are the operator's, not a holder's. */
const OPERATOR = '/api/operator/';

/**
 * Every holder GET in the document the server at `origin` publishes (/docs/json), each with its
 * query for every session holder; throws naming each route the bench cannot call.
 */
export async function holderGets(origin: string, values: HolderValues): Promise<HolderGet[]> {
  const response = await fetch(`${origin}/docs/json`);
  if (!response.ok) throw new Error(`the server's OpenAPI document: ${response.status} at ${origin}/docs/json`);
  const document = (await response.json()) as Document;
  const gets: HolderGet[] = [];
  const problems: string[] = [];
  const found = new Set<string>();
  for (const [path, operations] of Object.entries(document.paths)) {
    const get = operations.get;
    if (!get || !path.startsWith('/api/') || path.startsWith(OPERATOR)) continue;
    // Fastify's guard asks every /api route for a session unless it is public (security: []).
    if (!get.security) {
      problems.push(`${path}: the document says nothing of its security, so the bench cannot tell whether a holder calls it`);
      continue;
    }
    if (!get.security.some((scheme) => 'bearer' in scheme)) continue;
    found.add(path);
    const required = (get.parameters ?? []).filter((p) => p.required && p.in !== 'header');
    const variants = QUERIES[path] ?? [{ query: () => '' }];
    for (const variant of variants) {
      const example = variant.query(values, 0);
      const given = new URLSearchParams(example);
      const missing = required.filter((p) => p.in !== 'query' || !given.has(p.name)).map((p) => `${p.in} ${p.name}`);
      if (missing.length) {
        problems.push(`${path}: needs ${missing.join(', ')}, which bench/holderRoutes.ts (QUERIES) does not supply`);
        continue;
      }
      gets.push({
        path,
        ...(variant.label ? { label: variant.label } : {}),
        ...(example ? { query: (holder: number) => variant.query(values, holder) } : {}),
        example,
      });
    }
  }
  for (const path of Object.keys(QUERIES)) {
    if (!found.has(path)) problems.push(`${path}: in bench/holderRoutes.ts (QUERIES) but not a holder GET of the document`);
  }
  if (problems.length) throw new Error(`holder GETs the bench does not know how to call:\n  ${problems.join('\n  ')}`);
  return gets;
}
