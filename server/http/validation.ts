import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';

/** Fastify's own Ajv factory (the same defaults, formats and pool it uses when left alone). */
const fromPool = AjvCompiler();
type Factory = typeof fromPool;
/**
 * What the pooled compiler really takes: Fastify hands it the route's definition (schema, method,
 * url, part), though the package's types name only the schema.
 */
type CompileDefinition = (definition: FastifyRouteSchemaDef<unknown>) => ReturnType<ReturnType<Factory>>;
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
  const pooled = (coerceTypes: 'array' | false) =>
    fromPool(externalSchemas, { plugins, customOptions: { ...customOptions, coerceTypes } }) as unknown as CompileDefinition;
  const wire = pooled('array');
  const body = pooled(false);
  const compile: CompileDefinition = (definition) => (definition.httpPart === 'body' ? body : wire)(definition);
  return compile as unknown as ReturnType<Factory>;
};
