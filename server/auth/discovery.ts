import type { FastifyInstance } from 'fastify';
import * as client from 'openid-client';
import type { Config } from '../config.ts';

/** How long one answer of the exchange's discovery document stands for /readyz before it is asked again. */
const REMEMBERED_MS = 15_000;

/**
 * Whether the exchange's OpenID discovery answers as sign-in needs it (the same call and checks
 * as the sign-in's: the document found, its issuer the configured one): null, or why not. The
 * last answer is remembered for a short while, so a probe polling /readyz does not become
 * traffic to the exchange.
 */
function discoveryProbe(config: Pick<Config, 'oidcIssuer' | 'oidcClientId' | 'oidcClientSecret' | 'upstreamTimeoutMs'>, rememberMs = REMEMBERED_MS) {
  const issuer = config.oidcIssuer as string;
  let last: { problem: string | null; at: number } | undefined;
  let asking: Promise<string | null> | undefined;
  const ask = () =>
    client
      .discovery(new URL(issuer), config.oidcClientId, undefined, client.ClientSecretBasic(config.oidcClientSecret), {
        ...(config.upstreamTimeoutMs > 0 ? { timeout: config.upstreamTimeoutMs / 1000 } : {}),
        ...(issuer.startsWith('http:') ? { execute: [client.allowInsecureRequests] } : {}),
      })
      .then(
        () => null,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      )
      .then((problem) => {
        last = { problem, at: Date.now() };
        asking = undefined;
        return problem;
      });
  return async (): Promise<string | null> => {
    if (last && Date.now() - last.at < rememberMs) return last.problem;
    // Callers meanwhile share the one call, bounded by UPSTREAM_TIMEOUT_MS: a probe that gives up
    // on a hanging exchange first reads it as not ready, which it is.
    asking ??= ask();
    return asking;
  };
}

/**
 * With a real exchange (OIDC_ISSUER), /readyz answers 503 while its OpenID discovery fails
 * (unreachable, or answering badly): no one can sign in then, so a load balancer and the
 * operator's alerting should know, rather than see "ready" beside sign-ins failing with 502.
 */
export function installDiscoveryReadiness(app: FastifyInstance, config: Config, rememberMs = REMEMBERED_MS): void {
  if (!config.oidcIssuer) return;
  const problem = discoveryProbe(config, rememberMs);
  // Said once when it starts failing and once when it is back, not on every probe's call.
  let reported: string | null = null;
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.url !== '/readyz') return;
    const why = await problem();
    if (why !== reported) {
      if (why) request.log.warn({ issuer: config.oidcIssuer, problem: why }, "not ready: the exchange's OpenID discovery fails");
      else request.log.info({ issuer: config.oidcIssuer }, "the exchange's OpenID discovery answers again");
      reported = why;
    }
    if (why === null) return;
    return reply.code(503).send({ status: 'exchange discovery failing' });
  });
}
