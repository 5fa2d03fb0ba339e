import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

const SIGN_IN_ROUTES = ['/api/authorPage', '/api/login', '/signin/:uid'];

/**
 * Security headers (a CSP the app passes; HSTS only when served over TLS), and rate limits on
 * sign-in (per address) and on every money-moving POST (per session).
 */
export async function installSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const tls = config.publicUrl.startsWith('https:');
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // antd-mobile sets style attributes; the sign-in page has its own small stylesheet.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        formAction: ["'self'", ...(config.oidcIssuer ? [new URL(config.oidcIssuer).origin] : [])],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        upgradeInsecureRequests: tls ? [] : null,
      },
    },
    hsts: tls ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });

  // Limits are set per route below; routes without one are not limited.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    const signIn = SIGN_IN_ROUTES.includes(route.url);
    const moneyPost = methods.includes('POST') && route.url.startsWith('/api/');
    if (!signIn && !moneyPost) return;
    route.config = {
      ...route.config,
      rateLimit: {
        max: signIn ? config.rateLimitSignInPerMinute : config.rateLimitPostsPerMinute,
        timeWindow: 60_000,
        keyGenerator: (request) =>
          signIn ? request.ip : (request.headers.authorization ?? request.ip),
      },
    };
  });
  await app.register(rateLimit, { global: false });
}
