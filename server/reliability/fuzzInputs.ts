import fc from 'fast-check';
import { parseAmount } from '../../contract/money.ts';
import { newKey } from '../test/signIn.ts';

/**
 * Bad requests for any route, generated from its OpenAPI description (the route schemas), so a
 * new route is fuzzed as soon as it exists. Each request makes at least one declared input
 * surely invalid (by the rules the server validates with: Ajv with `coerceTypes: 'array'`, so
 * `"5"` is a fine integer and `[x]` a fine scalar; JSON bodies are no longer coerced, so for them
 * this is a lower bound of what is refused) and fills the rest with valid values, noise
 * (unicode, null bytes, injection strings) or nothing; extra fields, broken bodies and odd
 * headers come on top.
 */
type Schema = {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, Schema>;
  required?: string[];
};

type Field = { name: string; in: 'query' | 'path' | 'body'; required: boolean; schema: Schema };

export type Operation = {
  parameters?: { name: string; in: string; required?: boolean; schema: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};

export type FuzzRequest = {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** The server must refuse it (a non-zero code). */
  surelyInvalid: boolean;
};

/** Strings that have broken servers: injection, encodings, null bytes, numbers in disguise. */
const NASTY = [
  "' OR '1'='1", "1; DROP TABLE accounts; --", "1' UNION SELECT token_hash FROM sessions --", '\\', '"', '%',
  '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '{{7*7}}', `$${'{7*7}'}`, '../../etc/passwd',
  '\u0000', 'a\u0000b', '%00', '\u202e', '\ud800', '😀😀', '١٢٣', '１２３', 'NaN', 'Infinity', '-0', '1e309',
  '0x10', ' 1', '1 ', '-1', '1.000000001', '9223372036854775808', '99999999999999999999', 'null', 'undefined',
  '[]', '{}', 'true', '__proto__', 'constructor',
];

const nastyString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
);
const scalar = fc.oneof(nastyString, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
const objectValue = fc.dictionary(fc.string({ maxLength: 6 }), scalar, { minKeys: 1, maxKeys: 3 });
const manyValues = fc.array(scalar, { minLength: 2, maxLength: 4 });

/** How Ajv coerces a body value to a string or a number (null and booleans included). */
const asString = (v: unknown) => (v === null ? '' : typeof v === 'object' ? undefined : String(v));
function asNumber(v: unknown): number {
  if (v === null) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  // Ajv's test for a numeric string is `x == +x`: Number() of it, unless blank.
  if (typeof v === 'string' && v.trim() !== '') return Number(v);
  return Number.NaN;
}

function enumValues(schema: Schema): unknown[] | undefined {
  if (schema.enum) return schema.enum;
  if (schema.const !== undefined) return [schema.const];
  if (!schema.anyOf) return undefined;
  const values = schema.anyOf.map(enumValues);
  return values.every((v) => v !== undefined) ? values.flat() : undefined;
}

const isDate = (s: string) => /^\d{4}-\d{2}-\d{2}/.test(s);

/** A value the field's schema (or, for amounts, the server's amount rules) refuses. */
function invalidValue(field: Field, operator: boolean): fc.Arbitrary<unknown> {
  const { schema } = field;
  const wire = field.in !== 'body';
  const structural: fc.Arbitrary<unknown>[] = field.in === 'path' ? [] : wire ? [manyValues.map((a) => a.map(String))] : [manyValues, objectValue];
  const scalars = wire ? nastyString : scalar;
  const refused = (test: (v: unknown) => boolean) => fc.oneof(scalars.filter(test), ...structural);
  const values = enumValues(schema);
  if (values) return refused((v) => !values.includes(asString(v)));
  if (schema.pattern) {
    const re = new RegExp(schema.pattern);
    return refused((v) => asString(v) === undefined || !re.test(asString(v) as string));
  }
  if (schema.format === 'date' || schema.format === 'date-time') {
    return fc.oneof(refused((v) => !isDate(asString(v) ?? '')), fc.constantFrom('2026-13-45', '2026-02-30T25:61:00Z', 'yesterday'));
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    const out = (n: number) =>
      Number.isNaN(n) || (schema.type === 'integer' && !Number.isInteger(n)) ||
      (schema.minimum !== undefined && n < schema.minimum) || (schema.maximum !== undefined && n > schema.maximum);
    const numbers = fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(1e21, -1, 0, 401, 1.5));
    return fc.oneof(refused((v) => out(asNumber(v))), numbers.filter(out).map((n) => (wire ? String(n) : n)));
  }
  // A free string: only its length, or something that is no string at all, is refused by the
  // schema; an amount is also refused when it is no positive decimal of at most 8 places.
  const tooLong = fc.string({ minLength: (schema.maxLength ?? 1000) + 1, maxLength: (schema.maxLength ?? 1000) + 20 });
  const choices: fc.Arbitrary<unknown>[] = [tooLong, ...structural];
  if ((schema.minLength ?? 0) > 0) choices.push(fc.constant(''));
  if (field.name === 'amount') {
    choices.push(scalars.filter(badAmount), fc.constantFrom('0', '-5', '1.123456789', '1e5', '10000000001', ' ', '0.000000000'));
    // Huge but well-formed: refused for want of funds; an operator could fund that much.
    if (!operator) choices.push(fc.constantFrom('10000000000', '9999999999.99999999'));
  }
  return fc.oneof(...choices);
}

/** A value the field accepts (one, fixed, so examples are repeatable). */
function validSample(field: Field): unknown {
  const { schema } = field;
  const values = enumValues(schema);
  if (values) return values[0];
  if (schema.pattern) {
    const re = new RegExp(schema.pattern);
    return ['1', '2026-10-15', '2026-10', '0123456789abcdef'].find((v) => re.test(v)) ??
      fc.sample(fc.stringMatching(re), { numRuns: 1, seed: 1 })[0];
  }
  if (schema.format === 'date') return '2026-10-15';
  if (schema.format === 'date-time') return '2026-10-15T00:00:00.000Z';
  if (schema.type === 'integer' || schema.type === 'number') return schema.minimum ?? 1;
  return 'x';
}

/**
 * Values at the edge of what the schema accepts, which the layers behind it have to cope with:
 * ids beyond bigint, impossible days that match a day's pattern, NUL, lone surrogates,
 * injection strings, the extremes of a range.
 */
function edgeValues(field: Field): unknown[] {
  const { schema } = field;
  if (enumValues(schema)) return [];
  if (schema.pattern) {
    const re = new RegExp(schema.pattern);
    return ['0', '9223372036854775807', '9223372036854775808', '9999999999999999999', '2026-99-99', '0000-00-00', '9999-12-31', '2026-00']
      .filter((v) => re.test(v));
  }
  if (schema.format) return [];
  if (schema.type === 'integer' || schema.type === 'number') return [schema.minimum, schema.maximum].filter((v) => v !== undefined);
  const fits = (v: string) => v.length >= (schema.minLength ?? 0) && v.length <= (schema.maxLength ?? 10_000);
  return ['a\u0000b', "' OR 1=1 --", '😀', 'x\ud800', '<script>alert(1)</script>', ' '].filter(fits);
}

/** Refused by the server's amount rules: no positive decimal of at most 8 places. */
function badAmount(v: unknown): boolean {
  const parsed = parseAmount(asString(v) ?? {});
  return !parsed.ok || parsed.value <= 0n;
}

/**
 * Anything at all, no promise either way, except a well-formed amount: `'1 '` among the nasty
 * strings is one AIC, and with the other inputs valid it would move the caller's money.
 */
function noise(field: Field): fc.Arbitrary<unknown> {
  const any = field.in === 'body' ? scalar : nastyString;
  return field.name === 'amount' ? any.filter(badAmount) : any;
}

type Slot = { present: boolean; value: unknown };

/** encodeURIComponent, with lone surrogates (which it cannot encode) made U+FFFD first. */
const encode = (text: string) =>
  encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));

/** The inputs a route declares: path and query parameters, and the JSON body's properties. */
function fieldsOf(op: Operation | undefined): Field[] {
  const fields: Field[] = [];
  for (const p of op?.parameters ?? []) {
    if (p.in === 'query' || p.in === 'path') fields.push({ name: p.name, in: p.in, required: p.required === true, schema: p.schema });
  }
  const body = op?.requestBody?.content?.['application/json']?.schema;
  for (const [name, schema] of Object.entries(body?.properties ?? {})) {
    fields.push({ name, in: 'body', required: body?.required?.includes(name) ?? false, schema });
  }
  return fields;
}

const BAD_KEYS = ['', 'short', 'has spaces in it', 'ключ-ключ-ключ', 'k'.repeat(101), "key';--drop"];
const LANGS = ['en', 'zh-cn', 'xx', '../../', "' or 1=1", 'a'.repeat(300), '*'];
type BodyShape = 'object' | 'array' | 'string' | 'number' | 'null' | 'broken' | 'empty' | 'text' | 'huge';
type Parts = {
  values: Slot[];
  invalid: boolean;
  extras: Record<string, unknown>;
  shape: BodyShape;
  key: string | undefined;
  lang: string;
};

/** Puts a request together from its parts; `invalid` says a declared input is surely refused. */
function buildRequest(route: { method: string; url: string }, fields: Field[], hasBody: boolean, parts: Parts): FuzzRequest {
  const post = route.method === 'POST';
  let surelyInvalid = parts.invalid;
  let path = route.url;
  const query: [string, string][] = [];
  const body: Record<string, unknown> = {};
  fields.forEach((field, i) => {
    const { present, value } = parts.values[i] as Slot;
    if (field.in === 'path') path = path.replace(`:${field.name}`, encode(present ? String(value) : ''));
    else if (present && field.in === 'query') {
      for (const v of [value].flat()) query.push([field.name, typeof v === 'string' ? v : JSON.stringify(v)]);
    } else if (present) body[field.name] = value;
  });
  for (const [k, v] of Object.entries(parts.extras)) {
    if (post) body[k] = v;
    else query.push([k, typeof v === 'string' ? v : JSON.stringify(v)]);
  }
  const headers: Record<string, string> = { 'x-lang': parts.lang };
  let payload: string | undefined;
  if (post) {
    headers['idempotency-key'] = parts.key ?? newKey();
    if (parts.key !== undefined) surelyInvalid = true;
    headers['content-type'] = parts.shape === 'text' ? 'text/plain' : 'application/json';
    payload = {
      object: () => JSON.stringify(body),
      array: () => JSON.stringify([body]),
      string: () => JSON.stringify('body'),
      number: () => '42',
      null: () => 'null',
      broken: () => '{"amount": "1",',
      empty: () => '',
      text: () => 'amount=1',
      huge: () => JSON.stringify({ ...body, pad: 'x'.repeat(70_000) }),
    }[parts.shape]();
    // Broken JSON and a body over the 64 KB limit are refused anywhere; the rest only where a
    // route declares an object body (Fastify reads text/plain, and a route may ignore it).
    if (parts.shape === 'broken' || parts.shape === 'huge' || (hasBody && parts.shape !== 'object')) surelyInvalid = true;
  }
  const search = query.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
  return { method: route.method, url: search ? `${path}?${search}` : path, headers, payload, surelyInvalid };
}

const hasJsonBody = (op: Operation | undefined) => op?.requestBody?.content?.['application/json']?.schema !== undefined;

/**
 * Random bad requests for one route: mostly with one declared input made surely invalid (or a
 * required one left out), the other inputs valid, at an edge, noise or absent, plus extra
 * fields, odd bodies, keys and languages. `operator` keeps well-formed huge amounts out (an
 * operator may fund them).
 */
export function badRequests(
  route: { method: string; url: string },
  op: Operation | undefined,
  options: { operator: boolean },
): fc.Arbitrary<FuzzRequest> {
  const fields = fieldsOf(op);
  const post = route.method === 'POST';
  const slot = (field: Field): fc.Arbitrary<Slot> => {
    const edges = edgeValues(field);
    return fc.oneof(
      { weight: 2, arbitrary: fc.constant({ present: true, value: validSample(field) }) },
      { weight: edges.length > 0 ? 2 : 0, arbitrary: fc.constantFrom(...(edges.length > 0 ? edges : [null])).map((value) => ({ present: true, value })) },
      { weight: 2, arbitrary: noise(field).map((value) => ({ present: true, value })) },
      { weight: 1, arbitrary: fc.constant({ present: false, value: undefined }) },
    );
  };
  // An operator is only ever sent surely invalid input: with valid input it may change things.
  const noTarget = options.operator ? [] : [{ weight: 1, arbitrary: fc.constant(undefined) }];
  const target =
    fields.length === 0
      ? fc.constant(undefined)
      : fc.oneof(
          ...noTarget,
          {
            weight: 3,
            arbitrary: fc.nat({ max: fields.length - 1 }).chain((index) => {
              const field = fields[index] as Field;
              const missing = field.required ? [fc.constant({ present: false, value: undefined })] : [];
              const invalid = invalidValue(field, options.operator).map((value) => ({ present: true, value }));
              return fc.tuple(fc.constant(index), fc.oneof({ weight: 4, arbitrary: invalid }, ...missing));
            }),
          },
        );
  const declared = new Set(fields.map((f) => f.name));
  return fc
    .record({
      slots: fc.tuple(...fields.map(slot)),
      target,
      extras: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !declared.has(k)), scalar, { maxKeys: 3 }),
      shape: post
        ? fc.constantFrom<BodyShape>('object', 'object', 'object', 'object', 'object', 'array', 'string', 'number', 'null', 'broken', 'empty', 'text', 'huge')
        : fc.constant<BodyShape>('object'),
      key: fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...BAD_KEYS) }),
      lang: fc.constantFrom(...LANGS),
    })
    .map(({ slots, target, extras, shape, key, lang }) => {
      const values = fields.map((_, i) => (target && target[0] === i ? target[1] : slots[i]) as Slot);
      return buildRequest(route, fields, hasJsonBody(op), { values, invalid: target !== undefined, extras, shape, key, lang });
    });
}

/**
 * The same edges every run: each declared input at each of its edge values, the others valid
 * (fast-check runs these first, as examples). None of them is promised to be refused.
 */
export function edgeRequests(route: { method: string; url: string }, op: Operation | undefined): FuzzRequest[] {
  const fields = fieldsOf(op);
  const valid = fields.map((field) => ({ present: true, value: validSample(field) }));
  return fields.flatMap((field, i) =>
    edgeValues(field).map((value) => {
      const values = valid.map((slot, j) => (j === i ? { present: true, value } : slot));
      return buildRequest(route, fields, hasJsonBody(op), { values, invalid: false, extras: {}, shape: 'object', key: undefined, lang: 'en' });
    }),
  );
}
