import type { TSchema } from 'typebox';
import {
  CreditBody,
  DebitBody,
  EXCHANGE_PATHS,
  ExchangeError,
  ExchangeTransfer,
  FundingBody,
  HolderBalances,
  OmnibusStatement,
  TransferList,
  WEBHOOK_PATH,
  WebhookBody,
} from './exchange.ts';

type Operation = {
  summary: string;
  security: 'client' | 'holder' | 'signature';
  body?: TSchema;
  query?: string[];
  path?: string[];
  answer: TSchema;
};

const json = (schema: TSchema) => ({ 'application/json': { schema } });

function operation(id: string, op: Operation) {
  const parameters = [
    ...(op.path ?? []).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    ...(op.query ?? []).map((name) => ({ name, in: 'query', required: !['after', 'limit'].includes(name), schema: { type: 'string' } })),
  ];
  return {
    operationId: id,
    summary: op.summary,
    security: op.security === 'signature' ? [] : [{ [op.security]: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(op.body ? { requestBody: { required: true, content: json(op.body) } } : {}),
    responses: {
      200: { description: 'The answer', content: json(op.answer) },
      '4XX': { description: 'Refused: unauthorized, consent_revoked, not_found, mismatch or bad_request', content: json(ExchangeError) },
      '5XX': { description: 'Unavailable: nothing is known to have happened; read the transfer by its id', content: json(ExchangeError) },
    },
  };
}

/**
 * The exchange's API as an OpenAPI document (docs/exchange-api.md): what the platform needs of an
 * exchange, from the contract's schemas. The embedded exchange serves it at /exchange/openapi.json.
 */
export function exchangeOpenApi(serverUrl: string) {
  const range = ['from', 'to'];
  return {
    openapi: '3.0.3',
    info: { title: 'Exchange transfer API for AIC Earn', version: '1.0.0' },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        client: { type: 'http', scheme: 'basic', description: "The platform's client id and secret at the exchange" },
        holder: { type: 'http', scheme: 'bearer', description: "A holder's access token with the transfers scope" },
      },
    },
    paths: {
      [EXCHANGE_PATHS.debits]: {
        post: operation('debitHolder', { summary: 'Debit the holder into the omnibus account (recharge, transfer in)', security: 'holder', body: DebitBody, answer: ExchangeTransfer }),
      },
      [EXCHANGE_PATHS.credits]: {
        post: operation('creditHolder', { summary: 'Credit the holder from the omnibus account (withdrawal, transfer out)', security: 'client', body: CreditBody, answer: ExchangeTransfer }),
      },
      [EXCHANGE_PATHS.fundings]: {
        post: operation('fundOmnibus', { summary: "Move the platform's own money at the exchange into its omnibus account (a funding)", security: 'client', body: FundingBody, answer: ExchangeTransfer }),
      },
      [EXCHANGE_PATHS.transfer.replace(':transferId', '{transferId}')]: {
        get: operation('readTransfer', { summary: "One transfer by the platform's transfer id", security: 'client', path: ['transferId'], answer: ExchangeTransfer }),
      },
      [EXCHANGE_PATHS.transfers]: {
        get: operation('listTransfers', { summary: 'Transfers applied or refused in a time range, oldest first', security: 'client', query: [...range, 'after', 'limit'], answer: TransferList }),
      },
      [EXCHANGE_PATHS.omnibus]: {
        get: operation('omnibusStatement', { summary: "The omnibus account's balance at the start and end of a range", security: 'client', query: range, answer: OmnibusStatement }),
      },
      [EXCHANGE_PATHS.balances]: {
        get: operation('holderBalances', { summary: "The holder's balances at the exchange", security: 'holder', answer: HolderBalances }),
      },
    },
    'x-webhooks': {
      transferChanged: {
        post: {
          ...operation('transferChanged', { summary: `Sent to the platform's ${WEBHOOK_PATH}: a transfer changed (a hint: read it)`, security: 'signature', body: WebhookBody, answer: WebhookBody }),
          description: 'Header x-exchange-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body"> with the shared webhook secret.',
        },
      },
    },
  };
}
