import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LruCache } from '../../src/lib/lru-cache.js';

describe('LRU cache', () => {
  test('a stream of distinct keys never grows it past its capacity; the newest stay', () => {
    const cache = new LruCache<string, number>(100);
    for (let index = 0; index < 10_000; index += 1) {
      cache.set(`key ${index}`, index);
      assert.ok(cache.size <= 100, `size ${cache.size} after ${index + 1} keys`);
    }
    assert.equal(cache.size, 100);
    assert.deepEqual(
      cache.keys(),
      Array.from({ length: 100 }, (_, index) => `key ${9_900 + index}`),
    );
    assert.equal(cache.get('key 9899'), undefined);
    assert.equal(cache.get('key 9999'), 9_999);
  });

  test('full, it forgets the entry read or written least recently, not the hot ones', () => {
    const cache = new LruCache<string, string>(3);
    cache.set('a', 'A');
    cache.set('b', 'B');
    cache.set('c', 'C');
    assert.equal(cache.get('a'), 'A');
    cache.set('d', 'D');
    assert.deepEqual(cache.keys(), ['c', 'a', 'd']);
    assert.equal(cache.get('b'), undefined);
    // Writing a known key refreshes it without growing the cache.
    cache.set('c', 'C2');
    cache.set('e', 'E');
    assert.deepEqual(cache.keys(), ['d', 'c', 'e']);
    assert.equal(cache.get('c'), 'C2');
    assert.equal(cache.size, 3);
  });

  test('a hot entry read between every insertion survives any number of cold ones', () => {
    const cache = new LruCache<number, number>(10);
    cache.set(-1, -1);
    for (let index = 0; index < 1_000; index += 1) {
      cache.set(index, index);
      assert.equal(cache.get(-1), -1, `the hot entry was dropped at ${index}`);
    }
    assert.equal(cache.size, 10);
  });

  test('delete and clear keep the order consistent', () => {
    const cache = new LruCache<string, number>(3);
    for (const key of ['a', 'b', 'c']) cache.set(key, 1);
    assert.equal(cache.delete('b'), true);
    assert.equal(cache.delete('b'), false);
    assert.deepEqual(cache.keys(), ['a', 'c']);
    assert.equal(cache.delete('c'), true);
    assert.equal(cache.delete('a'), true);
    assert.deepEqual(cache.keys(), []);
    cache.set('x', 1);
    cache.set('y', 2);
    cache.clear();
    assert.equal(cache.size, 0);
    assert.deepEqual(cache.keys(), []);
    cache.set('z', 3);
    assert.deepEqual(cache.keys(), ['z']);
  });

  test('refuses a capacity below one', () => {
    for (const capacity of [0, -1, 1.5, Number.NaN]) {
      assert.throws(() => new LruCache(capacity), RangeError, String(capacity));
    }
  });
});
