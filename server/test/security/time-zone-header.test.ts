import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { timeZoneCacheSizes } from '../../src/lib/time-zone.js';
import { signUp } from '../helpers.js';
import { buildSecurityApp, report } from './support.js';

// 23:00 on the 10th in New York, 04:00 on the 11th in Paris: the day a request is answered in shows the zone it read.
const NOW = Date.parse('2026-03-11T03:00:00.000Z');
const { app } = await buildSecurityApp({ now: NOW });
const summary: string[] = [];
after(() => report(`time-zone header: ${summary.join('; ')}`));

/** Each letter's case at random: all valid spellings of the zone, and almost all different from each other. */
const randomCasing = (zone: string) =>
  [...zone].map((letter) => (Math.random() < 0.5 ? letter.toLowerCase() : letter.toUpperCase())).join('');

async function today(headers: Record<string, string>) {
  const response = await app.inject({ method: 'GET', url: '/api/tasks/today', headers });
  assert.equal(response.statusCode, 200, response.body);
  return (response.json() as { date: string }).date;
}

describe('the X-Time-Zone header', () => {
  test('any letter case is read as the canonical zone: the days, the stored zone and its edits', async () => {
    const user = await signUp(app, { timeZone: 'AMERICA/NEW_YORK' });
    assert.equal(user.user.timeZone, 'America/New_York');
    assert.equal(await today(user.headers), '2026-03-10');
    const { 'x-time-zone': _header, ...withoutHeader } = user.headers;
    assert.equal(await today(withoutHeader), '2026-03-10', "the stored zone is New York's");

    const edited = await app.inject({
      method: 'PATCH',
      url: '/api/users/me',
      headers: withoutHeader,
      payload: { timeZone: 'europe/PARIS' },
    });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.equal(edited.json().user.timeZone, 'Europe/Paris');
    assert.equal(await today(withoutHeader), '2026-03-11');
    const alias = await app.inject({
      method: 'PATCH',
      url: '/api/users/me',
      headers: withoutHeader,
      payload: { timeZone: 'asia/kolkata' },
    });
    const kolkata = new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Kolkata' }).resolvedOptions().timeZone;
    assert.equal(alias.json().user.timeZone, kolkata);
    summary.push('AMERICA/NEW_YORK -> America/New_York (days, registration), europe/PARIS -> Europe/Paris');
  });

  test('a flood of spellings on the unauthenticated health check adds at most one cache entry per zone', async () => {
    const zones = ['America/New_York', 'Europe/Berlin', 'Asia/Tokyo'];
    for (const zone of zones)
      assert.equal(
        (await app.inject({ url: '/api/health', headers: { 'x-time-zone': zone } })).statusCode,
        200,
      );
    const before = timeZoneCacheSizes();
    const spellings = new Set<string>();
    while (spellings.size < 600) spellings.add(randomCasing(zones[spellings.size % zones.length]!));
    const garbage = Array.from({ length: 200 }, (_, index) => `Nowhere/Zone_${index}_${Math.random()}`);
    for (const value of [...spellings, ...garbage]) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-time-zone': value },
      });
      assert.equal(response.statusCode, 200, value);
    }
    const after = timeZoneCacheSizes();
    assert.deepEqual(after, before, 'the zone caches grew');
    summary.push(
      `${spellings.size} spellings of ${zones.length} zones + ${garbage.length} unknown names: caches unchanged`,
    );
  });
});
