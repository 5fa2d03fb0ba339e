import { type Static, Type } from 'typebox';
import { LANGUAGES, type LanguageKey } from './languages.ts';

/**
 * Web Push, opt-in (issue 20): a holder's browser subscribes with the server's VAPID public key
 * and hands the server its push address and keys; the server then sends each new notice there,
 * worded in the language given here.
 */

/** GET /api/push/key: the application server key to subscribe with (base64url, 65 bytes). */
export const PushKeyData = Type.Object({ publicKey: Type.String() });
export type PushKeyData = Static<typeof PushKeyData>;

/** The push service's address for this browser (PushSubscription.endpoint). */
const Endpoint = Type.String({ minLength: 12, maxLength: 1000, pattern: '^https?://[^\\s]+$' });
const Base64Url = (bytes: string) => Type.String({ pattern: `^[A-Za-z0-9_-]{${bytes}}={0,2}$` });

/** POST /api/push/subscribe: this browser's subscription (PushSubscription.toJSON()) and language. */
export const PushSubscribeBody = Type.Object(
  {
    endpoint: Endpoint,
    keys: Type.Object(
      {
        /** The browser's P-256 public key, uncompressed (65 bytes). */
        p256dh: Base64Url('86,88'),
        /** The 16-byte authentication secret. */
        auth: Base64Url('22,24'),
      },
      { additionalProperties: false },
    ),
    /** The app's language key: the notices are worded in it. */
    language: Type.Unsafe<LanguageKey>(Type.Union(LANGUAGES.map((l) => Type.Literal(l.key)))),
  },
  { additionalProperties: false },
);
export type PushSubscribeBody = Static<typeof PushSubscribeBody>;

/** POST /api/push/unsubscribe: stop sending to this address (404 when it is not the caller's). */
export const PushUnsubscribeBody = Type.Object({ endpoint: Endpoint }, { additionalProperties: false });
export type PushUnsubscribeBody = Static<typeof PushUnsubscribeBody>;

export const PushStateData = Type.Object({ subscribed: Type.Boolean() });
export type PushStateData = Static<typeof PushStateData>;

/** What the service worker receives (decrypted): the notice worded, and the app's route to open. */
export type PushPayload = { title: string; body: string; url: string; tag: string };
