import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';

function hasNonFinite(value: unknown, depth = 0): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (depth > 8 || value === null || typeof value !== 'object') return false;
  return Object.values(value).some((inner) => hasNonFinite(inner, depth + 1));
}

/**
 * Ajv coerces the strings "Infinity" and "1e309" to Infinity and then lets it through
 * `integer` with a maximum (its finiteness check runs before coercion), so `?limit=Infinity`
 * reached the database (a 500) and `{"days": "1e999"}` would move the clock forever. Every
 * number in the query, path and body must be finite; anything else is a parameter error.
 * (Found by the reliability suite's fuzzing.)
 */
export function refuseNonFiniteNumbers(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    if (hasNonFinite(request.query) || hasNonFinite(request.params) || hasNonFinite(request.body)) {
      throw new AppError('PARAM', 'a number is not finite');
    }
  });
}
