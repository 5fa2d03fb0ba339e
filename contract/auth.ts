import { type Static, Type } from 'typebox';

export const AuthorPageQuery = Type.Object({
  redirectUri: Type.String({ minLength: 1, maxLength: 500, description: 'The web app home URL to come back to' }),
  lang: Type.Optional(Type.String({ maxLength: 20 })),
  redirectRefer: Type.Optional(Type.String({ maxLength: 200, description: 'App route to return to' })),
  prompt: Type.Optional(
    Type.Literal('login', { description: 'Ask the exchange to sign in again (after a logout)' }),
  ),
});
export type AuthorPageQuery = Static<typeof AuthorPageQuery>;

/** The authorisation address the window navigates to. */
export const AuthorPageData = Type.String({ format: 'uri' });

export const LoginQuery = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 2000 }),
  state: Type.String({ minLength: 1, maxLength: 200 }),
});
export type LoginQuery = Static<typeof LoginQuery>;

export const LoginData = Type.Object({
  token: Type.String({ description: 'Bearer token, valid 30 days' }),
  userId: Type.String(),
  redirectRefer: Type.Union([Type.String(), Type.Null()]),
});
export type LoginData = Static<typeof LoginData>;

export { UserInfoData } from './team.ts';
