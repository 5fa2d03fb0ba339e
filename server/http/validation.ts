import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';

/** Fastify's own Ajv factory (the same defaults, formats and pool it uses when left alone). */
const fromPool = AjvCompiler();
type Factory = typeof fromPool;
type AjvOptions = import('@fastify/ajv-compiler').Options;

/**
 * One Ajv per kind of request part. Query strings, path parameters and headers are text on the
 * wire, so they are coerced to what the schema says (`?limit=5` is an integer, `?types=a` an
 * array of one). A JSON body is taken as sent: a field declared a string must be a string, so an
 * amount sent as the number 5 or the array ["5"] is refused (PARAM) instead of being coerced to
 * "5" (which `coerceTypes: 'array'` did); an integer must be a number, not "5".
 */
export const partValidators: Factory = (externalSchemas, options) => {
  const customOptions: AjvOptions = { removeAdditional: false, ...(options?.customOptions as AjvOptions | undefined) };
  const plugins = options?.plugins;
  const wire = fromPool(externalSchemas, { plugins, customOptions: { ...customOptions, coerceTypes: 'array' } });
  const body = fromPool(externalSchemas, { plugins, customOptions: { ...customOptions, coerceTypes: false } });
  // Fastify calls the compiler with the route's definition (its types name only the schema).
  const compile = (definition: FastifyRouteSchemaDef<unknown>) =>
    (definition.httpPart === 'body' ? body : wire)(definition as never);
  return compile as unknown as ReturnType<Factory>;
};
