import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import {
  ENDPOINTS,
  EXCLUDED_METHODS,
  EXCLUDED_ROUTES,
  PROTECTED_ENDPOINTS,
  buildSecurityApp,
  describeEndpoint,
  recordRoutes,
  report,
} from './support.js';

const recorder = recordRoutes();
const { app } = await buildSecurityApp();
recorder.stop();
await app.ready();

const registered = [...recorder.routes]
  .filter((route) => {
    const [method, url] = route.split(' ') as [string, string];
    return !EXCLUDED_METHODS.includes(method) && !EXCLUDED_ROUTES.some((pattern) => pattern.test(url));
  })
  .sort();

after(() =>
  report(
    `endpoint table: ${ENDPOINTS.length} endpoints (${PROTECTED_ENDPOINTS.length} protected) = ${registered.length} registered routes`,
  ),
);

describe('the security endpoint table', () => {
  test('lists exactly the routes the app registers (docs and HEAD/OPTIONS aside)', () => {
    assert.ok(
      registered.length > 20,
      `only ${registered.length} routes seen: is the onRoute hook installed?`,
    );
    assert.deepEqual(ENDPOINTS.map(describeEndpoint).sort(), registered);
  });

  test('has no duplicate rows and every :id route names the kind of record it takes', () => {
    assert.equal(new Set(ENDPOINTS.map(describeEndpoint)).size, ENDPOINTS.length);
    for (const endpoint of ENDPOINTS) {
      assert.equal(endpoint.url.includes(':id'), endpoint.idKind !== undefined, describeEndpoint(endpoint));
      assert.ok(app.hasRoute({ method: endpoint.method, url: endpoint.url }), describeEndpoint(endpoint));
    }
  });

  test('the excluded routes are only the documentation and the catch-all preflight', () => {
    const excluded = [...recorder.routes].filter((route) => !registered.includes(route));
    for (const route of excluded) {
      const [method, url] = route.split(' ') as [string, string];
      assert.ok(
        method === 'HEAD' || (method === 'OPTIONS' && url === '*') || url.startsWith('/api/docs'),
        `${route} is excluded from the table without a reason`,
      );
    }
  });
});
