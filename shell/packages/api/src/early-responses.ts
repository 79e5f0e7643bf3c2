/**
 * A response the page asked for before this package could load. The shell's entry starts the session check
 * (`GET /auth/validate`) while React and the store still download, and hands the pending response over here; the api
 * slice's first identical request (same URL, method and token) takes it instead of asking again, so it goes through
 * the same base query (timeout, 401 handling, parsing) as any other answer. It is taken once.
 */
export interface EarlyResponse {
  url: string;
  authorization: string;
  response: Promise<Response>;
}

let pending: EarlyResponse | null = null;

export function adoptEarlyResponse(early: EarlyResponse | null): void {
  pending = early;
}

function isTheEarlyRequest(input: RequestInfo | URL, early: EarlyResponse): input is Request {
  return (
    input instanceof Request &&
    input.method === 'GET' &&
    input.url === new URL(early.url, window.location.href).href &&
    input.headers.get('Authorization') === early.authorization
  );
}

/** `fetch`, except that the first request matching the adopted early one gets its response. */
export function fetchWithEarlyResponse(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const early = pending;
  if (early && isTheEarlyRequest(input, early)) {
    pending = null;
    // The request's signal carries the slice's timeout: an early answer that never comes times out like any other.
    const { signal } = input;
    const aborted = new Promise<never>((_resolve, reject) => {
      const abort = () => reject(signal.reason ?? new DOMException('Aborted', 'AbortError'));
      if (signal.aborted) abort();
      else signal.addEventListener('abort', abort, { once: true });
    });
    return Promise.race([early.response, aborted]);
  }
  return fetch(input, init);
}
