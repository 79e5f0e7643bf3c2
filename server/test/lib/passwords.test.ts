import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PRODUCTION_PASSWORD_HASH_COST } from '../../src/config.js';
import { hashPassword, verifyPassword } from '../../src/lib/passwords.js';
import { buildTestApp } from '../helpers.js';

describe('password hashing', () => {
  test('production hashes with scrypt N=2^17, r=8, p=1 (OWASP) and verifies only the right password', async () => {
    assert.equal(PRODUCTION_PASSWORD_HASH_COST, 17);
    const stored = await hashPassword('Abcdef1!', PRODUCTION_PASSWORD_HASH_COST);
    const [scheme, cost, blockSize, parallelism, salt, key] = stored.split('$');
    assert.deepEqual([scheme, cost, blockSize, parallelism], ['scrypt', '17', '8', '1']);
    assert.equal(Buffer.from(salt!, 'base64url').length, 16);
    assert.equal(Buffer.from(key!, 'base64url').length, 32);
    assert.equal(await verifyPassword('Abcdef1!', stored), true);
    // The wrong password is checked against a cheap hash: each 2^17 derivation costs 128 MiB and real time.
    const cheap = await hashPassword('Abcdef1!', 10);
    assert.equal(await verifyPassword('Abcdef1?', cheap), false);
    assert.equal(await verifyPassword('Abcdef1!', 'bcrypt$whatever'), false);
  });

  test('an app built without overrides stores production-cost hashes', async () => {
    const { app } = await buildTestApp({ config: { passwordHashCost: undefined } });
    assert.equal(app.config.passwordHashCost, PRODUCTION_PASSWORD_HASH_COST);
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/register/user',
      payload: { username: 'fullCost1', email: 'full@example.com', password: 'Abcdef1!', name: 'Full Cost' },
    });
    assert.equal(response.statusCode, 201);
    const row = await app.db.selectFrom('users').select('passwordHash').executeTakeFirstOrThrow();
    assert.match(row.passwordHash, /^scrypt\$17\$8\$1\$/);
  });
});
