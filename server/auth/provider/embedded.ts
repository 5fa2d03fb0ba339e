import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import { Type } from 'typebox';
import { TRANSFER_SCOPE } from '../../../contract/exchange.ts';
import { LANGUAGES } from '../../../contract/languages.ts';
import type { AppContext } from '../../context.ts';
import { createAccount, ensureDemoAccounts, findAccount, listAccounts } from './accounts.ts';
import { providerKeys } from './keys.ts';
import { signInPage } from './page.ts';
import { databaseAdapter } from './store.ts';

const PROVIDER_PREFIX = '/oidc';
const SIGN_IN_PREFIX = '/signin';

/** First-party client only: its grant is made without a consent screen. */
async function loadGrant(ctx: KoaContextWithOIDC) {
  const clientId = ctx.oidc.client?.clientId;
  const accountId = ctx.oidc.session?.accountId;
  if (!clientId || !accountId || !ctx.oidc.session) return undefined;
  const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(clientId);
  if (grantId) return ctx.oidc.provider.Grant.find(grantId);
  const grant = new ctx.oidc.provider.Grant({ clientId, accountId });
  grant.addOIDCScope(`openid profile ${TRANSFER_SCOPE}`);
  await grant.save();
  return grant;
}

/**
 * The embedded OpenID provider that stands in for the exchange when none is configured: real
 * discovery, authorization code with PKCE, token endpoint and JWKS, mounted under /oidc, with
 * a sign-in page where a person picks a demo account or creates one by name.
 */
export async function mountEmbeddedProvider(app: FastifyInstance, ctx: AppContext): Promise<Provider> {
  const { jwks, cookieKeys } = await providerKeys(ctx.db);
  await ensureDemoAccounts(ctx.db);
  const provider = new Provider(`${ctx.config.publicUrl}${PROVIDER_PREFIX}`, {
    adapter: databaseAdapter(ctx.db),
    clients: [
      {
        client_id: ctx.config.oidcClientId,
        client_secret: ctx.config.oidcClientSecret,
        redirect_uris: ctx.config.redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    // The transfer scope is the holder's consent to be debited by the platform (exchange/api.ts);
    // the platform keeps a refresh token to act on it after the access token has expired.
    scopes: ['openid', 'offline_access', TRANSFER_SCOPE],
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: () => false,
    expiresWithSession: async () => false,
    // The name travels in the ID token, so sign-in needs no userinfo call.
    conformIdTokenClaims: false,
    claims: { openid: ['sub'], profile: ['name'] },
    cookies: { keys: cookieKeys },
    jwks,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `${SIGN_IN_PREFIX}/${interaction.uid}` },
    loadExistingGrant: loadGrant,
    findAccount: async (_ctx, id) => {
      const account = await findAccount(ctx.db, id);
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, name: account.name }) };
    },
    ttl: {
      Interaction: 600,
      Session: 3600,
      // A holder's consent lasts as long as an app session (SESSION_TTL_DAYS).
      Grant: ctx.config.sessionTtlDays * 86_400,
      RefreshToken: ctx.config.sessionTtlDays * 86_400,
      AuthorizationCode: 60,
      AccessToken: 600,
      IdToken: 600,
    },
  });
  provider.proxy = true;

  // The pages a browser opens (the authorisation and sign-out endpoints) are limited per address
  // like the sign-in page; the platform's own calls (token, JWKS, discovery) are not.
  const pages = app.limitByAddress('exchange pages', ctx.config.rateLimitSignInPerMinute);
  const isPage = (path: string) => /^\/oidc\/(auth|session)(\/|$)/.test(path);
  mountUnder(app, PROVIDER_PREFIX, provider.callback(), async (path, request) => (isPage(path) ? pages(request) : null));
  registerSignInRoutes(app, ctx, provider);
  return provider;
}

/**
 * Hands every request under `prefix` to a Node handler (the provider, a Koa app) before Fastify
 * reads its body, with the prefix taken off the URL as a mount does; `originalUrl` keeps the
 * whole. Fastify lets go of the reply. Every other request pays one string comparison (middie,
 * used here before, ran its middleware engine for every request of the server).
 */
function mountUnder(
  app: FastifyInstance,
  prefix: string,
  handler: (req: IncomingMessage, res: ServerResponse) => unknown,
  limited: (path: string, request: FastifyRequest) => Promise<number | null>,
) {
  app.addHook('onRequest', async (request, reply) => {
    const url = request.raw.url ?? '/';
    const path = url.split('?', 1)[0] ?? '';
    if (path !== prefix && !path.startsWith(`${prefix}/`)) return;
    const wait = await limited(path, request);
    if (wait !== null) {
      return reply.code(429).header('retry-after', String(wait)).type('text/plain; charset=utf-8').send('Too many requests: try again in a minute.');
    }
    reply.hijack();
    const raw = request.raw as IncomingMessage & { originalUrl?: string };
    raw.originalUrl = url;
    const rest = url.slice(prefix.length);
    raw.url = rest.startsWith('/') ? rest : `/${rest}`;
    handler(raw, reply.raw);
    return reply;
  });
}

function pageLanguage(uiLocales: unknown) {
  const tag = typeof uiLocales === 'string' ? uiLocales.split(' ')[0] : undefined;
  return LANGUAGES.find((l) => l.key === tag || l.htmlLang === tag) ?? LANGUAGES[1];
}

function registerSignInRoutes(app: FastifyInstance, ctx: AppContext, provider: Provider) {
  const Params = Type.Object({ uid: Type.String({ maxLength: 100 }) });
  const Body = Type.Object({
    account: Type.Optional(Type.String({ maxLength: 100 })),
    name: Type.Optional(Type.String({ maxLength: 200 })),
  });

  const render = async (request: FastifyRequest, reply: FastifyReply, error?: string) => {
    const details = await provider.interactionDetails(request.raw, reply.raw);
    const language = pageLanguage(details.params.ui_locales);
    const html = signInPage({
      action: `${SIGN_IN_PREFIX}/${details.uid}`,
      accounts: await listAccounts(ctx.db),
      language: language.key,
      htmlLang: language.htmlLang,
      ...(error ? { error } : {}),
    });
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  };

  app.get(`${SIGN_IN_PREFIX}/:uid`, { schema: { hide: true, params: Params } }, (request, reply) =>
    render(request, reply),
  );

  app.post(`${SIGN_IN_PREFIX}/:uid`, { schema: { hide: true, params: Params, body: Body } }, async (request, reply) => {
    const body = request.body as { account?: string; name?: string };
    const name = body.name?.trim();
    const account = body.account
      ? await findAccount(ctx.db, body.account)
      : name
        ? await createAccount(ctx.db, name)
        : undefined;
    if (!account) return render(request, reply, 'unknownAccount');
    const redirectTo = await provider.interactionResult(
      request.raw,
      reply.raw,
      { login: { accountId: account.subject } },
      { mergeWithLastSubmission: false },
    );
    return reply.redirect(redirectTo, 303);
  });
}
