import * as client from 'openid-client';
import type { AppContext } from '../context.ts';
import { TRANSFER_SCOPE } from '../../contract/exchange.ts';
import { AppError, upstreamError } from '../http/errors.ts';

/** The sign-in state of one redirect lives this long (PRODUCT.md: 10 minutes). */
const STATE_TTL_MS = 10 * 60_000;

/** The holder's consent to be debited by the platform: the exchange's tokens for the transfer scope. */
export type ExchangeGrant = { subject: string; accessToken: string; refreshToken: string | null; expiresAt: Date };

type SignedInIdentity = { subject: string; name: string; redirectRefer: string | null; grant: ExchangeGrant };

export type OAuthClient = {
  issuer: string;
  authorizationUrl(input: { redirectUri: string; lang?: string; redirectRefer?: string; prompt?: 'login' }): Promise<string>;
  /** Exchanges a code for a verified identity; each state is accepted once. */
  exchange(code: string, state: string): Promise<SignedInIdentity>;
  /** New tokens for a holder's refresh token; 'revoked' when the exchange no longer honours it. */
  refresh(grant: ExchangeGrant): Promise<ExchangeGrant | 'revoked'>;
};

const SCOPE = `openid profile ${TRANSFER_SCOPE}`;

function grantOf(tokens: client.TokenEndpointResponse, subject: string, previous?: ExchangeGrant): ExchangeGrant {
  return {
    subject,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token ?? previous?.refreshToken ?? null,
    expiresAt: new Date(Date.now() + (tokens.expires_in ?? 600) * 1000),
  };
}

/**
 * The platform as an OAuth 2.0 / OpenID Connect client of the exchange: authorization code
 * with PKCE (S256), state and nonce kept server-side, the ID token verified on exchange.
 */
export function createOAuthClient(ctx: AppContext, fetchImpl?: client.CustomFetch): OAuthClient {
  const issuer = ctx.config.oidcIssuer ?? `${ctx.config.publicUrl}/oidc`;
  let discovered: Promise<client.Configuration> | null = null;

  const configuration = () => {
    discovered ??= client
      .discovery(
        new URL(issuer),
        ctx.config.oidcClientId,
        undefined,
        client.ClientSecretBasic(ctx.config.oidcClientSecret),
        {
          ...(ctx.config.upstreamTimeoutMs > 0 ? { timeout: ctx.config.upstreamTimeoutMs / 1000 } : {}),
          // Only the embedded provider on plain-http localhost needs this.
          ...(issuer.startsWith('http:') ? { execute: [client.allowInsecureRequests] } : {}),
          ...(fetchImpl ? { [client.customFetch]: fetchImpl } : {}),
        },
      )
      .catch((error: unknown) => {
        discovered = null;
        throw error;
      });
    return discovered;
  };

  return {
    issuer,
    async authorizationUrl({ redirectUri, lang, redirectRefer, prompt }) {
      if (!ctx.config.redirectUris.includes(redirectUri)) throw new AppError('REDIRECT_NOT_ALLOWED');
      const config = await configuration().catch((error: unknown) => {
        throw upstreamError(error, 'identity provider discovery');
      });
      const state = client.randomState();
      const nonce = client.randomNonce();
      const codeVerifier = client.randomPKCECodeVerifier();
      const now = ctx.clock.now();
      await ctx.db
        .insertInto('oauth_states')
        .values({
          state,
          nonce,
          code_verifier: codeVerifier,
          redirect_uri: redirectUri,
          redirect_refer: redirectRefer ?? null,
          created_at: now,
          expires_at: new Date(now.getTime() + STATE_TTL_MS),
        })
        .execute();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        ...(lang ? { ui_locales: lang } : {}),
        ...(prompt ? { prompt } : {}),
      });
      // The embedded exchange is this server: send the browser to it at the address it used for
      // the app (a phone on the LAN cannot reach PUBLIC_URL's localhost). The address is one of
      // the allowed return addresses, checked above.
      if (!ctx.config.oidcIssuer) {
        const back = new URL(redirectUri);
        url.protocol = back.protocol;
        url.host = back.host;
      }
      return url.href;
    },

    async exchange(code, state) {
      const now = ctx.clock.now();
      const pending = await ctx.db
        .updateTable('oauth_states')
        .set({ consumed_at: now })
        .where('state', '=', state)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', now)
        .returning(['code_verifier', 'nonce', 'redirect_uri', 'redirect_refer'])
        .executeTakeFirst();
      if (!pending) throw new AppError('LOGIN_FAILED', 'unknown, expired or used state');
      try {
        const config = await configuration();
        const callback = new URL(pending.redirect_uri);
        callback.searchParams.set('code', code);
        callback.searchParams.set('state', state);
        // The app relays only code and state; the issuer is known from the state it was made for.
        callback.searchParams.set('iss', config.serverMetadata().issuer);
        const tokens = await client.authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: pending.code_verifier,
          expectedState: state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) throw new Error('no ID token');
        const name = typeof claims.name === 'string' && claims.name ? claims.name : claims.sub;
        return {
          subject: `${config.serverMetadata().issuer}|${claims.sub}`,
          name,
          redirectRefer: pending.redirect_refer,
          grant: grantOf(tokens, claims.sub),
        };
      } catch (error) {
        if (error instanceof AppError) throw error;
        const upstream = upstreamError(error, 'login');
        if (upstream.errorName === 'GATEWAY_TIMEOUT') throw upstream;
        throw new AppError('LOGIN_FAILED', error instanceof Error ? error.message : String(error));
      }
    },

    async refresh(grant) {
      if (!grant.refreshToken) return 'revoked';
      const config = await configuration();
      try {
        return grantOf(await client.refreshTokenGrant(config, grant.refreshToken), grant.subject, grant);
      } catch (error) {
        // invalid_grant: the holder (or the exchange) withdrew the consent; anything else may pass.
        if (error instanceof client.ResponseBodyError && error.error === 'invalid_grant') return 'revoked';
        throw error;
      }
    },
  };
}
