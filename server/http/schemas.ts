import type { FastifyReply } from 'fastify';
import type { TSchema } from 'typebox';
import { Envelope, ErrorEnvelope } from '../../contract/envelope.ts';

/** The answers a route declares: its data in the envelope, and the error envelope. */
export const answers = <T extends TSchema>(data: T) => ({
  200: Envelope(data),
  '4xx': ErrorEnvelope,
  '5xx': ErrorEnvelope,
});

export const ok = <T>(data: T) => ({ code: 0, msg: 'success', data });

/**
 * The `ok` envelope around data already written as JSON text (by PostgreSQL, for pages whose
 * rows cost more to parse and write again than to read): sent as it is, not through the route's
 * serializer, so a test holds the text to the schema's shape.
 */
export const sendData = (reply: FastifyReply, dataJson: string) =>
  reply.type('application/json; charset=utf-8').send(`{"code":0,"msg":"success","data":${dataJson}}`);
