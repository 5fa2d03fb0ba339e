import type { FastifyInstance } from 'fastify';
import type { CustomFetch } from 'openid-client';

/**
 * Lets the OAuth client talk to the embedded provider inside this process (no network hop,
 * and it works before the server listens or when PUBLIC_URL is not reachable from inside).
 */
export function injectFetch(app: FastifyInstance, origin: string): CustomFetch {
  return async (url, options) => {
    const target = new URL(url);
    if (target.origin !== origin) return fetch(url, options as RequestInit);
    const headers = Object.fromEntries(new Headers(options.headers as HeadersInit));
    const response = await app.inject({
      method: options.method as 'GET' | 'POST',
      url: `${target.pathname}${target.search}`,
      headers: { ...headers, host: target.host, 'x-forwarded-proto': target.protocol.replace(':', '') },
      ...(options.body ? { payload: String(options.body) } : {}),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    }
    return new Response(new Uint8Array(response.rawPayload), { status: response.statusCode, headers: responseHeaders });
  };
}
