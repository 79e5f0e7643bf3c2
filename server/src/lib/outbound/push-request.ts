import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { refusedAddressReason } from './address-guard.js';
import { MAX_URL_LENGTH, OutboundError, checkedAddresses, request } from './fetch-calendar.js';

/** Bound of one push request: resolving, connecting, sending and the answer (the job retries a timeout). */
export const PUSH_TIMEOUT_MS = 10_000;
/** Bytes of a push service's answer read (its error text, for the log); the rest is dropped. */
const MAX_ANSWER_BYTES = 4096;

const refusedMessage = (reason: string) =>
  `This push endpoint points to ${reason}; push services must be on the public internet`;

/** Why an endpoint is refused before any request: not a usable https URL, or a refused literal address. */
function endpointRefusal(
  endpoint: string,
  allowPrivateHosts: boolean,
): { reason: 'invalid-url' | 'refused'; message: string } | null {
  const invalid = (message: string) => ({ reason: 'invalid-url' as const, message });
  if (endpoint.length > MAX_URL_LENGTH) return invalid('The push endpoint is longer than 2,000 characters');
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return invalid('The push endpoint is not a valid web address');
  }
  if (url.protocol !== 'https:') return invalid('The push endpoint must be an https address');
  if (url.username || url.password)
    return invalid('The push endpoint must not contain a user name or password');
  if (!url.hostname) return invalid('The push endpoint has no host name');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!allowPrivateHosts && isIP(host) !== 0) {
    const reason = refusedAddressReason(host);
    if (reason !== null) return { reason: 'refused', message: refusedMessage(reason) };
  }
  return null;
}

/**
 * Why a browser's push endpoint cannot be stored, as a sentence, or null: an https URL of at most 2,000 characters,
 * without credentials, whose host, when it is a literal IP address, is public (unless private hosts are allowed). A
 * host name is resolved and checked again at every send (postPush), where DNS may have changed.
 */
export function pushEndpointProblem(endpoint: string, allowPrivateHosts: boolean): string | null {
  return endpointRefusal(endpoint, allowPrivateHosts)?.message ?? null;
}

export interface PushRequestOptions {
  /** config.subscriptions.allowPrivateHosts: the same knob as calendar subscriptions. */
  allowPrivateHosts: boolean;
  timeoutMs?: number;
  /** Tests only: resolves a host name (default: the system resolver). */
  resolveHost?: (host: string) => Promise<LookupAddress[]>;
}

export interface PushAnswer {
  status: number;
  /** The start of the answer's body (at most 4 KiB), for the log. */
  text: string;
  /** Retry-After, in seconds, when the service sent it as a number. */
  retryAfterSeconds: number | null;
}

/**
 * POSTs one encrypted push to a push service: the endpoint's host is resolved here and every address checked before
 * the socket connects to exactly those (the calendar fetch's guard), redirects are not followed, and time and the
 * answer read are bounded. Resolves with the service's status whatever it is; throws an OutboundError when the
 * service could not be asked (refused address, unreachable, timeout).
 */
export async function postPush(
  endpoint: string,
  headers: Record<string, string>,
  body: Buffer,
  options: PushRequestOptions,
): Promise<PushAnswer> {
  const refusal = endpointRefusal(endpoint, options.allowPrivateHosts);
  if (refusal !== null) throw new OutboundError(refusal.reason, refusal.message);
  const url = new URL(endpoint);
  const timeoutMs = options.timeoutMs ?? PUSH_TIMEOUT_MS;
  const abort = new AbortController();
  const timer = setTimeout(
    () =>
      abort.abort(
        new OutboundError('timeout', `The push service ${url.host} did not answer within ${timeoutMs} ms`),
      ),
    timeoutMs,
  );
  const aborted = new Promise<never>((_resolve, reject) => {
    abort.signal.addEventListener('abort', () => reject(abort.signal.reason as Error), { once: true });
  });
  aborted.catch(() => undefined);
  try {
    const addresses = await Promise.race([checkedAddresses(url, options, refusedMessage), aborted]);
    const response = await request(url, addresses, headers, abort.signal, body);
    const chunks: Buffer[] = [];
    let received = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      chunks.push(chunk.subarray(0, Math.max(0, MAX_ANSWER_BYTES - received)));
      received += chunk.length;
      if (received >= MAX_ANSWER_BYTES) {
        response.destroy();
        break;
      }
    }
    const retryAfter = Number(response.headers['retry-after']);
    return {
      status: response.statusCode ?? 0,
      text: Buffer.concat(chunks).toString('utf8'),
      retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null,
    };
  } catch (error) {
    if (abort.signal.aborted) throw abort.signal.reason;
    if (error instanceof OutboundError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const message = /CERT|TLS|SSL/.test(code)
      ? `The push service ${url.host} has no valid certificate`
      : `The push service ${url.host} could not be reached`;
    throw new OutboundError('unreachable', message, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}
