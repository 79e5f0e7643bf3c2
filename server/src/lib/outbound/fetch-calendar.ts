import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import { createGunzip, createInflate } from 'node:zlib';
import { refusedAddressReason } from './address-guard.js';

export const MAX_CALENDAR_BYTES = 10 * 1024 * 1024;
export const CALENDAR_TIMEOUT_MS = 15_000;
export const MAX_CALENDAR_REDIRECTS = 3;
export const MAX_URL_LENGTH = 2_000;

export type OutboundFailure =
  | 'invalid-url'
  | 'refused'
  | 'unreachable'
  | 'timeout'
  | 'too-large'
  | 'http-status'
  | 'too-many-redirects'
  | 'bad-response';

/** A calendar that could not be fetched; the message is a sentence for the person who subscribed. */
export class OutboundError extends Error {
  override readonly name = 'OutboundError';
  /** The HTTP status of an 'http-status' failure (a 404 or 410 may mean the calendar is gone for good). */
  readonly status: number | undefined;

  constructor(
    readonly reason: OutboundFailure,
    message: string,
    options: { cause?: unknown; status?: number } = {},
  ) {
    super(message, { cause: options.cause });
    this.status = options.status;
  }
}

export interface FetchCalendarOptions {
  /** Whether loopback, private, link-local and metadata addresses may be reached (config.subscriptions). */
  allowPrivateHosts: boolean;
  /** The validators of the copy the caller has: the server may answer 304, and the result is 'not-modified'. */
  etag?: string | null;
  lastModified?: string | null;
  /** Bound of the body, after decompression too (default 10 MiB). */
  maxBytes?: number;
  /** Bound of the whole fetch: resolving, every redirect and the body (default 15 s). */
  timeoutMs?: number;
  maxRedirects?: number;
  /** Cancels the fetch; it then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Tests only: resolves a host name (default: the system resolver, every address). */
  resolveHost?: (host: string) => Promise<LookupAddress[]>;
  /** Tests only: decides whether a resolved address may be reached (default: refusedAddressReason). */
  guard?: (address: string, host: string) => string | null;
}

export type FetchedCalendar =
  | { status: 'not-modified' }
  | { status: 'ok'; body: Buffer; etag: string | null; lastModified: string | null; url: string };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const HEADERS = {
  accept: 'text/calendar, */*;q=0.5',
  'accept-encoding': 'gzip, deflate',
  'user-agent': 'TimeWallet/1.0 (calendar subscription)',
};

const invalidUrl = (message: string) => new OutboundError('invalid-url', message);

/** A subscription address as a URL the fetch accepts: http or https (webcal becomes https), no credentials. */
export function normalizeSubscriptionUrl(input: string, base?: URL): URL {
  // webcal is https by convention; it is replaced before parsing, because the URL parser treats an unknown scheme's
  // host as an opaque string (no IP normalisation) and does not let its protocol be changed afterwards.
  const text = input.trim().replace(/^webcals?:/i, 'https:');
  if (text.length > MAX_URL_LENGTH) throw invalidUrl('This address is longer than 2,000 characters');
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw invalidUrl('This is not a valid web address');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidUrl('Calendars can only be subscribed to over https, http or webcal');
  if (url.username || url.password)
    throw invalidUrl('The address must not contain a user name or password; use a private link instead');
  if (!url.hostname) throw invalidUrl('The address has no host name');
  if (url.href.length > MAX_URL_LENGTH) throw invalidUrl('This address is longer than 2,000 characters');
  return url;
}

function inWords(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / 1024 / 1024).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}

const seconds = (ms: number) => (ms === 1000 ? '1 second' : `${Number((ms / 1000).toFixed(1))} seconds`);

/**
 * Resolves the URL's host and checks every address it has, so DNS cannot slip a private one past the guard. `refused`
 * words the error for what the address is for (a calendar by default; a push endpoint in lib/outbound/push-request.ts).
 */
export async function checkedAddresses(
  url: URL,
  options: Pick<FetchCalendarOptions, 'allowPrivateHosts' | 'resolveHost' | 'guard'>,
  refused: (reason: string) => string = (reason) =>
    `This address points to ${reason}; calendars must be on the public internet`,
): Promise<LookupAddress[]> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(host);
  let addresses: LookupAddress[];
  if (family !== 0) addresses = [{ address: host, family }];
  else {
    try {
      addresses = await (options.resolveHost ?? ((name) => dnsLookup(name, { all: true })))(host);
    } catch (error) {
      throw new OutboundError('unreachable', `The host ${host} could not be found`, { cause: error });
    }
    if (addresses.length === 0) throw new OutboundError('unreachable', `The host ${host} could not be found`);
  }
  if (!options.allowPrivateHosts) {
    const guard = options.guard ?? refusedAddressReason;
    for (const { address } of addresses) {
      const reason = guard(address, host);
      if (reason !== null) throw new OutboundError('refused', refused(reason));
    }
  }
  return addresses;
}

/**
 * Sends one request (a GET unless a body is given, then a POST) to the checked addresses only; the URL's host still
 * names the server (Host header, TLS SNI).
 */
export function request(
  url: URL,
  addresses: LookupAddress[],
  headers: Record<string, string>,
  signal: AbortSignal,
  body?: Buffer,
): Promise<IncomingMessage> {
  // With autoSelectFamily (Node 20's default) the socket asks for every address and tries them in turn.
  const lookup: LookupFunction = (_host, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    client
      .request(url, { method: body ? 'POST' : 'GET', headers, lookup, signal, agent: false }, resolve)
      .on('error', reject)
      .end(body);
  });
}

/** Reads the body, decompressed, and stops as soon as either the compressed or the decompressed bytes pass the bound. */
async function readBody(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const tooLarge = () => new OutboundError('too-large', `The calendar is larger than ${inWords(maxBytes)}`);
  if (Number(response.headers['content-length']) > maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : null;
  if (decoder === null && encoding !== 'identity') {
    response.destroy();
    throw new OutboundError('bad-response', `The calendar server sent an unknown encoding (${encoding})`);
  }
  let received = 0;
  response.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > maxBytes) response.destroy(tooLarge());
  });
  // pipeline destroys every stream when one fails, so the loop below ends on the first error of any of them.
  const body: Readable = decoder === null ? response : pipeline(response, decoder, () => undefined);
  const chunks: Buffer[] = [];
  let decoded = 0;
  try {
    for await (const chunk of body) {
      decoded += chunk.length;
      if (decoded > maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (error) {
    response.destroy();
    if (error instanceof OutboundError) throw error;
    if (decoder !== null && (error as NodeJS.ErrnoException).code?.startsWith('Z_'))
      throw new OutboundError('bad-response', 'The calendar server sent a damaged compressed file', {
        cause: error,
      });
    throw error;
  }
  return Buffer.concat(chunks);
}

function unreachable(error: unknown, url: URL): OutboundError {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const message = /CERT|TLS|SSL/.test(code)
    ? `The calendar server ${url.host} has no valid certificate`
    : `The calendar server ${url.host} could not be reached`;
  return new OutboundError('unreachable', message, { cause: error });
}

/**
 * Fetches a subscribed calendar: every hop's host is resolved here and each of its addresses checked before the
 * socket connects to exactly those addresses, redirects are followed by hand and checked again, and time, size and
 * redirects are bounded, so a hostile URL or server can neither reach the private network nor hold the worker.
 */
export async function fetchCalendar(input: string, options: FetchCalendarOptions): Promise<FetchedCalendar> {
  const {
    maxBytes = MAX_CALENDAR_BYTES,
    timeoutMs = CALENDAR_TIMEOUT_MS,
    maxRedirects = MAX_CALENDAR_REDIRECTS,
  } = options;
  let url = normalizeSubscriptionUrl(input);
  options.signal?.throwIfAborted();
  // One controller for the deadline and the caller's signal; its reason says which one ended the fetch.
  const abort = new AbortController();
  const timer = setTimeout(
    () =>
      abort.abort(
        new OutboundError('timeout', `The calendar server did not answer within ${seconds(timeoutMs)}`),
      ),
    timeoutMs,
  );
  const onCallerAbort = () => abort.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  const aborted = new Promise<never>((_resolve, reject) => {
    abort.signal.addEventListener('abort', () => reject(abort.signal.reason as Error), { once: true });
  });
  // Only the resolver races this promise; without a handler a deadline after the last lookup would be unhandled.
  aborted.catch(() => undefined);

  const headers: Record<string, string> = { ...HEADERS };
  if (options.etag) headers['if-none-match'] = options.etag;
  if (options.lastModified) headers['if-modified-since'] = options.lastModified;
  const conditional = Boolean(options.etag || options.lastModified);

  try {
    for (let redirects = 0; ; redirects += 1) {
      // The resolver cannot be cancelled, so the deadline races it.
      const addresses = await Promise.race([checkedAddresses(url, options), aborted]);
      const response = await request(url, addresses, headers, abort.signal);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECTS.has(status) && location) {
        response.destroy();
        if (redirects >= maxRedirects)
          throw new OutboundError(
            'too-many-redirects',
            `The calendar address redirects more than ${maxRedirects} times`,
          );
        url = normalizeSubscriptionUrl(location, url);
        continue;
      }
      if (status === 304 && conditional) {
        response.destroy();
        return { status: 'not-modified' };
      }
      if (status < 200 || status > 299) {
        response.destroy();
        const text = http.STATUS_CODES[status];
        throw new OutboundError(
          'http-status',
          `The calendar server answered ${status}${text ? ` ${text}` : ''}`,
          { status },
        );
      }
      const body = await readBody(response, maxBytes);
      return {
        status: 'ok',
        body,
        etag: response.headers.etag ?? null,
        lastModified: response.headers['last-modified'] ?? null,
        url: url.href,
      };
    }
  } catch (error) {
    // A request or body cut off by the deadline or the caller fails with an AbortError: report why instead.
    if (abort.signal.aborted) throw abort.signal.reason;
    if (error instanceof OutboundError) throw error;
    throw unreachable(error, url);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }
}
