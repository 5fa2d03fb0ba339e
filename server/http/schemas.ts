import type { TSchema } from 'typebox';
import { Envelope, ErrorEnvelope } from '../../contract/envelope.ts';

/** The answers a route declares: its data in the envelope, and the error envelope. */
export const answers = <T extends TSchema>(data: T) => ({
  200: Envelope(data),
  '4xx': ErrorEnvelope,
  '5xx': ErrorEnvelope,
});

export const ok = <T>(data: T) => ({ code: 0, msg: 'success', data });
