// A tiny HTTP load balancer for tests: each request goes to the next target in turn (round-robin), so a client that
// talks to one URL is served alternately by several API instances. It connects to them from 127.0.0.1. Plain JavaScript, so the browser suites (.mjs,
// no TypeScript loader) can import it as well as the server's tests.
import http from 'node:http';

/**
 * @param {string[]} targets base URLs of the instances, e.g. ['http://127.0.0.1:4101', 'http://127.0.0.1:4102']
 * @param {{ port?: number, host?: string }} [options] where the proxy listens (default: a free port on 127.0.0.1)
 * @returns {Promise<{ url: string, counts: number[], close: () => Promise<void> }>} counts[i]: requests sent to targets[i]
 */
export async function startRoundRobinProxy(targets, options = {}) {
  if (targets.length === 0) throw new Error('startRoundRobinProxy needs at least one target');
  const parsed = targets.map((target) => new URL(target));
  const counts = targets.map(() => 0);
  let turn = 0;

  const server = http.createServer((request, response) => {
    const index = turn % parsed.length;
    turn += 1;
    counts[index] += 1;
    const target = parsed[index];
    const headers = { ...request.headers, host: target.host };
    // As a real load balancer does: the address it was connected from goes to the right of whatever the client sent,
    // so an API that trusts this proxy (TRUST_PROXY=<its address> or 1) counts that address, not the client's words.
    const client = request.socket.remoteAddress ?? '';
    headers['x-forwarded-for'] = request.headers['x-forwarded-for']
      ? `${request.headers['x-forwarded-for']}, ${client}`
      : client;
    const upstream = http.request(
      {
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      if (!response.headersSent) {
        response.writeHead(502, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ message: 'Bad gateway' }));
      } else {
        response.destroy();
      }
    });
    request.pipe(upstream);
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve(undefined));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    counts,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
