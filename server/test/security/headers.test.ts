import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import { signUp } from '../helpers.js';
import {
  ENDPOINTS,
  buildSecurityApp,
  contextFor,
  describeEndpoint,
  injectOptions,
  needsSubscriptions,
  report,
  seedActor,
} from './support.js';

const ORIGIN = 'http://localhost:3000';
const FOREIGN = 'https://evil.example';
const { app, dataDir } = await buildSecurityApp({ config: { corsOrigins: [ORIGIN] } });
const user = await signUp(app);

const answers: Array<[string, (origin: string) => InjectOptions]> = [
  [
    'a normal answer',
    (origin) => ({ method: 'GET', url: '/api/users/me', headers: { ...user.headers, origin } }),
  ],
  ['a 401', (origin) => ({ method: 'GET', url: '/api/tasks/today', headers: { origin } })],
  [
    'a 404 for an unknown route',
    (origin) => ({ method: 'GET', url: '/api/nothing-here', headers: { origin } }),
  ],
  [
    'a 400 validation error',
    (origin) => ({
      method: 'POST',
      url: '/api/categories',
      headers: { ...user.headers, origin },
      payload: {},
    }),
  ],
  [
    'a 404 for an undecodable URL',
    (origin) => ({ method: 'GET', url: '/api/tasks/%ff', headers: { origin } }),
  ],
  [
    'a preflight',
    (origin) => ({
      method: 'OPTIONS',
      url: '/api/tasks',
      headers: {
        origin,
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization',
      },
    }),
  ],
];

let checked = 0;
let noStore = 0;
after(() =>
  report(
    `headers: ${answers.length} kinds of answer x 2 origins = ${checked} responses checked; ` +
      `Cache-Control: no-store on ${noStore} endpoints' success answers`,
  ),
);

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  );
}

describe('API response headers', () => {
  for (const [name, request] of answers) {
    test(`${name}: nosniff, no framing, referrer policy, COOP, a CSP without inline or eval script`, async () => {
      const response = await app.inject(request(ORIGIN));
      checked += 1;
      const headers = response.headers;
      assert.equal(headers['x-content-type-options'], 'nosniff', name);
      const csp = directives(String(headers['content-security-policy'] ?? ''));
      assert.ok(csp.size > 0, `${name}: no Content-Security-Policy`);
      const frameAncestors = csp.get('frame-ancestors');
      assert.ok(
        (frameAncestors?.length === 1 && frameAncestors[0] === "'none'") ||
          String(headers['x-frame-options']).toUpperCase() === 'DENY',
        `${name}: framing allowed (frame-ancestors ${frameAncestors?.join(' ')}, X-Frame-Options ${headers['x-frame-options']})`,
      );
      assert.ok(headers['referrer-policy'], `${name}: no Referrer-Policy`);
      assert.equal(headers['cross-origin-opener-policy'], 'same-origin', name);
      const scriptSources = csp.get('script-src') ?? csp.get('default-src');
      assert.ok(scriptSources, `${name}: CSP does not restrict scripts`);
      for (const unsafe of ["'unsafe-inline'", "'unsafe-eval'", '*', 'data:']) {
        assert.ok(!scriptSources.includes(unsafe), `${name}: script-src allows ${unsafe}`);
      }
      assert.ok(!String(headers['content-security-policy']).includes("'unsafe-eval'"), name);
      assert.equal(
        headers['access-control-allow-origin'],
        ORIGIN,
        `${name}: the configured origin is refused`,
      );
    });

    test(`${name}: a foreign Origin gets no Access-Control-Allow-Origin`, async () => {
      const response = await app.inject(request(FOREIGN));
      checked += 1;
      assert.equal(response.headers['access-control-allow-origin'], undefined, name);
      assert.equal(response.headers['x-content-type-options'], 'nosniff', name);
    });
  }
});

describe('API answers stay out of caches', () => {
  test("every endpoint's success answer says Cache-Control: no-store, token answers included (health, the API's document and the private feed aside)", async () => {
    const tokenAnswers: string[] = [];
    for (const endpoint of ENDPOINTS) {
      if (endpoint.url === '/api/health' || endpoint.url === '/api/openapi.json') continue;
      // A user of its own for each, so sign-out and account deletion judge only themselves.
      const actor = await seedActor(app, 'cacheProbe', {
        importEvent: false,
        subscriptions: needsSubscriptions(endpoint),
      });
      const context = contextFor(app, dataDir, actor);
      const response = await app.inject(injectOptions(endpoint, context, await endpoint.valid(context)));
      const name = describeEndpoint(endpoint);
      assert.ok(response.statusCode < 300, `${name}: ${response.statusCode} ${response.body}`);
      if (endpoint.url === '/api/feed/:file') {
        // Polled by calendar apps, with an ETag: a private cache may keep it a few minutes, a shared one never.
        assert.equal(response.headers['cache-control'], 'private, max-age=300', name);
        continue;
      }
      assert.equal(response.headers['cache-control'], 'no-store', name);
      noStore += 1;
      if (/"token":/.test(response.body)) tokenAnswers.push(name);
    }
    assert.deepEqual(tokenAnswers.sort(), ['POST /api/auth/login', 'POST /api/auth/register']);
  });

  test('error answers of the API say no-store as well', async () => {
    for (const [name, request] of answers.slice(0, 5)) {
      const response = await app.inject(request(ORIGIN));
      assert.equal(response.headers['cache-control'], 'no-store', name);
    }
  });
});
