import { promises as dns } from 'node:dns';
import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { RequestDetails } from 'web-push';
import type { Config } from '../config.ts';
import { isPublicAddress } from '../platform/network.ts';

/**
 * How a push request reaches its push service. The push address is the holder's browser's say,
 * so a public server must not let it point at itself or its network: the host is resolved here,
 * every address it resolves to is checked, and the connection goes to a checked address with no
 * second lookup (a name that answers a public address to the check and 127.0.0.1 to the connection,
 * DNS rebinding, gets nowhere). TLS still checks the certificate against the name.
 */

/** Where pushes may go: `pushLocalEndpoints` lets them reach this machine and its network. */
export type PushPolicy = Pick<Config, 'pushLocalEndpoints' | 'pushAllowedHosts'>;

export type Resolved = { address: string; family: number };
/** A host's addresses, as `dns.promises.lookup(host, { all: true })` gives them; tests pass their own. */
export type Resolver = (host: string) => Promise<Resolved[]>;
export const lookupAll: Resolver = (host) => dns.lookup(host, { all: true });

/** The push service's status, 0 when none came; or why nothing was sent (the address is not one to send to). */
type Delivery = { status: number } | { refused: string };

/** Kept-alive connections, apart from the process's other calls: each was opened to a checked address. */
const agents = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': new HttpsAgent({ keepAlive: true }) };

/** Why a host's addresses may not be sent to, or null: a public server sends to public addresses only, all of them. */
export function addressesProblem(addresses: readonly Resolved[], policy: PushPolicy): string | null {
  if (addresses.length === 0) return 'the endpoint resolves to no address';
  if (policy.pushLocalEndpoints) return null;
  const local = addresses.find((resolved) => !isPublicAddress(resolved.address));
  return local ? `the endpoint resolves to a local address (${local.address})` : null;
}

/**
 * The addresses of `url`'s host (a URL writes an IPv6 address in brackets, which a lookup does not
 * take); rejects when the lookup fails or outlasts `signal`: a lookup has no timeout of its own.
 */
export function lookupHost(url: URL, resolve: Resolver, signal: AbortSignal): Promise<Resolved[]> {
  const aborted = new Promise<never>((_, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  return Promise.race([resolve(url.hostname.replace(/^\[|\]$/g, '')), aborted]);
}

/** A lookup that answers the addresses already checked, in either form net.connect asks for. */
function pinned(addresses: readonly Resolved[]): LookupFunction {
  return (_host, options, callback) => {
    const [first] = addresses as [Resolved];
    if (options.all) callback(null, [...addresses]);
    else callback(null, first.address, first.family);
  };
}

/**
 * POSTs `request` to `url`, connecting only to `addresses`: the push service's status, or 0 when
 * none came. The host stays the name, so the Host header and TLS's server name (and the
 * certificate check) are the name's. A redirect is not followed: its 3xx is the answer.
 */
function post(url: URL, request: RequestDetails, addresses: readonly Resolved[], signal: AbortSignal): Promise<number> {
  const https = url.protocol === 'https:';
  const send = https ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const onResponse = (response: IncomingMessage) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    };
    const outgoing = send(
      url,
      { method: request.method, headers: request.headers, lookup: pinned(addresses), signal, agent: https ? agents['https:'] : agents['http:'] },
      onResponse,
    );
    outgoing.on('error', () => resolve(0));
    outgoing.end(request.body ?? undefined);
  });
}

/**
 * Sends one push request built by web-push: resolves its host, refuses it when an address is not
 * one to send to (nothing connects), else posts it to those addresses. The whole of it, lookup
 * included, within `timeoutMs`. A lookup that fails is a failed send, not a refusal: DNS recovers.
 */
export async function deliverPush(request: RequestDetails, policy: PushPolicy, resolve: Resolver, timeoutMs: number): Promise<Delivery> {
  const url = new URL(request.endpoint);
  const signal = AbortSignal.timeout(timeoutMs);
  let addresses: Resolved[];
  try {
    addresses = await lookupHost(url, resolve, signal);
  } catch {
    return { status: 0 };
  }
  const problem = addressesProblem(addresses, policy);
  if (problem) return { refused: problem };
  return { status: await post(url, request, addresses, signal) };
}
