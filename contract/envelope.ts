import { type TSchema, Type } from 'typebox';

/** Every answer of the API: {code, msg, data}; code 0 means success. */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({ code: Type.Integer(), msg: Type.String(), data });

export const ErrorEnvelope = Type.Object({
  code: Type.Integer({ description: 'Non-zero envelope code from contract/errors.ts' }),
  msg: Type.String(),
  data: Type.Null(),
});

export type EnvelopeOf<T> = { code: number; msg: string; data: T };

/** An amount on the wire: a decimal string of at most 8 decimals. */
export const AmountString = Type.String({
  pattern: '^-?\\d+(\\.\\d{1,8})?$',
  description: 'Decimal string, up to 8 decimals',
  // `example`, not `examples`: the API document is OpenAPI 3.0, whose schemas have one example.
  example: '12.5',
});
