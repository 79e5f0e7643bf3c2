import { setRuntimeConfig } from '../runtime-config';

/** The API base URL every test configures; requests are matched by their path below it. */
export const TEST_API_BASE_URL = 'http://api.test/api';

export interface RecordedRequest {
  method: string;
  url: string;
  /** The URL below TEST_API_BASE_URL, with its query. */
  path: string;
  headers: Headers;
  credentials: RequestCredentials;
  body: unknown;
}

export interface MockReply {
  status?: number;
  body?: unknown;
}

/** Makes fetch reject the way a browser does when the server cannot be reached. */
export const NETWORK_FAILURE = 'network-failure';

type Outcome = MockReply | typeof NETWORK_FAILURE;
export type MockHandler = Outcome | ((request: RecordedRequest) => Outcome | Promise<Outcome>);

export function jsonResponse(status: number, body?: unknown): Response {
  if (status === 204 || body === undefined) return new Response(null, { status });
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

async function bodyOf(request: Request): Promise<unknown> {
  const text = await request.clone().text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Replaces the network edge (globalThis.fetch) with routes keyed 'METHOD /path' (a key with a '?' must match the
 * query too). Unrouted calls answer 404 and are recorded like the others.
 */
export function mockApi(routes: Record<string, MockHandler> = {}) {
  const requests: RecordedRequest[] = [];
  const fetchSpy = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = input instanceof Request && !init ? input : new Request(input, init);
    const path = request.url.startsWith(TEST_API_BASE_URL)
      ? request.url.slice(TEST_API_BASE_URL.length)
      : request.url;
    const recorded: RecordedRequest = {
      method: request.method,
      url: request.url,
      path,
      headers: request.headers,
      credentials: request.credentials,
      body: await bodyOf(request),
    };
    requests.push(recorded);
    const handler = routes[`${request.method} ${path}`] ?? routes[`${request.method} ${path.split('?')[0]}`];
    if (handler === undefined) return jsonResponse(404, { message: `No mock for ${request.method} ${path}` });
    const answer = (async () => {
      const outcome = typeof handler === 'function' ? await handler(recorded) : handler;
      if (outcome === NETWORK_FAILURE) throw new TypeError('Failed to fetch');
      return jsonResponse(outcome.status ?? 200, outcome.body);
    })();
    // Like a browser, an aborted request (the client's timeout) rejects even while the server is still silent.
    const aborted = new Promise<never>((_resolve, reject) => {
      const abort = () => reject(request.signal.reason ?? new DOMException('Aborted', 'AbortError'));
      if (request.signal.aborted) abort();
      else request.signal.addEventListener('abort', abort, { once: true });
    });
    return Promise.race([answer, aborted]);
  });
  return {
    fetchSpy,
    requests,
    requestsTo: (method: string, path: string) =>
      requests.filter((request) => request.method === method && request.path.split('?')[0] === path),
  };
}

/** A promise the test settles itself, to hold a request open. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** Fresh runtime config and storage, so no test sees another's token or theme. */
export function resetTestEnvironment(config: { inactivityTimeoutMs?: number } = {}): void {
  setRuntimeConfig({ apiBaseUrl: TEST_API_BASE_URL, remotes: {}, ...config });
  window.localStorage.clear();
}
