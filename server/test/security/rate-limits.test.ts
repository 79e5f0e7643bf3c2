import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { assertJsonMessage, buildSecurityApp, report } from './support.js';

const summary: string[] = [];
after(() => report(`rate limits: ${summary.join('; ')}`));

describe('the health check has a limit', () => {
  test('past it /api/health answers 429 with Retry-After; API traffic of the same address is counted apart', async () => {
    const { app } = await buildSecurityApp({ rateLimit: { healthPerMinute: 3, globalPerMinute: 3 } });
    const statuses: number[] = [];
    let last;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      last = await app.inject({ method: 'GET', url: '/api/health', remoteAddress: '198.51.100.30' });
      statuses.push(last.statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    assert.ok(Number(last!.headers['retry-after']) > 0, String(last!.headers['retry-after']));
    assertJsonMessage(last!, 'health past its limit');
    const elsewhere = await app.inject({ method: 'GET', url: '/api/health', remoteAddress: '198.51.100.31' });
    assert.equal(elsewhere.statusCode, 200);
    // The same address still has its whole API allowance, and using it up leaves a probe from there answered.
    const api: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      api.push(
        (await app.inject({ method: 'GET', url: '/api/auth/me', remoteAddress: '198.51.100.31' })).statusCode,
      );
    }
    assert.deepEqual(api, [401, 401, 401, 429], 'the probe took part of the API allowance');
    const probe = await app.inject({ method: 'GET', url: '/api/health', remoteAddress: '198.51.100.31' });
    assert.equal(probe.statusCode, 200);
    summary.push('health: 3 per minute -> 429 + Retry-After, counted apart from the API limit');
  });
});
