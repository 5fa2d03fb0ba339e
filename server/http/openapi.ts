import type { FastifyInstance } from 'fastify';
import { PATHS } from '../../contract/paths.ts';

/** Each API path's name in the contract (PATHS' key), by its route URL. */
const NAME_OF_PATH = new Map<string, string>(Object.entries(PATHS).map(([name, path]) => [path, name]));

/**
 * What the published document says of each operation, from what the route already says, so no
 * route spells it by hand: its `operationId` is its path's name in the contract (clients name
 * their methods after it; a route that shares its path with another method declares its own),
 * and a public route (`config: { public: true }`, what the auth guard reads) asks for no
 * security. Two operations with one id stop the server at start. Install before the routes.
 */
export function describeOperations(app: FastifyInstance): void {
  const taken = new Set<string>();
  app.addHook('onRoute', (route) => {
    const name = NAME_OF_PATH.get(route.url);
    // HEAD routes are Fastify's copies of GET routes, left out of the document.
    if (!name || !route.schema || route.schema.hide || route.method === 'HEAD') return;
    const operationId = route.schema.operationId ?? name;
    if (taken.has(operationId)) throw new Error(`two operations are named ${operationId}: give ${route.url} its own operationId`);
    taken.add(operationId);
    route.schema = { ...route.schema, operationId, ...(route.config?.public === true ? { security: [] } : {}) };
  });
}
