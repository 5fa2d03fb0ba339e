import { type Static, Type } from 'typebox';

/** A session's id: the first 16 hex digits of its token's hash (never enough to sign in). */
const SessionId = Type.String({ pattern: '^[0-9a-f]{16}$', description: 'Session id (not the token)' });

/** GET /api/sessions: the holder's live sessions, most recently seen first. */
export const SessionItem = Type.Object({
  id: SessionId,
  /** Read from the user agent ("Chrome on Android"); null parts were not recognised. */
  device: Type.String(),
  browser: Type.Union([Type.String(), Type.Null()]),
  os: Type.Union([Type.String(), Type.Null()]),
  firstSeen: Type.String({ description: 'UTC ISO 8601' }),
  lastSeen: Type.String({ description: 'UTC ISO 8601, updated at most every 5 minutes' }),
  current: Type.Boolean({ description: 'The session this call was made with' }),
});
export type SessionItem = Static<typeof SessionItem>;

export const SessionsData = Type.Object({ items: Type.Array(SessionItem) });
export type SessionsData = Static<typeof SessionsData>;

/** POST /api/sessions/revoke */
export const RevokeSessionBody = Type.Object({ id: SessionId });
export type RevokeSessionBody = Static<typeof RevokeSessionBody>;

/** POST /api/sessions/revoke and /api/sessions/revoke-others */
export const RevokedData = Type.Object({ revoked: Type.Integer({ minimum: 0 }) });
export type RevokedData = Static<typeof RevokedData>;
