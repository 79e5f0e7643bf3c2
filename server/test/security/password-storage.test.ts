import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { PRODUCTION_PASSWORD_HASH_COST, loadConfig } from '../../src/config.js';
import { buildSecurityApp, databaseState, report } from './support.js';

const PASSWORD = 'Corr3ct-Horse-Battery';
let stored = '';
after(() =>
  report(
    `password storage: the users row holds ${stored.split('$').slice(0, 4).join('$')}$<salt>$<key> (OWASP: scrypt$17$8$1)`,
  ),
);

describe('password storage', () => {
  test('production hashes at scrypt N=2^17, r=8, p=1 (OWASP) unless told otherwise', () => {
    assert.equal(PRODUCTION_PASSWORD_HASH_COST, 17);
    const config = loadConfig({ JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/nonexistent-unused' });
    assert.equal(config.passwordHashCost, PRODUCTION_PASSWORD_HASH_COST);
  });

  test('a new account stores only an OWASP-strength scrypt hash: never the password, in any row', async () => {
    const { app } = await buildSecurityApp({ config: { passwordHashCost: PRODUCTION_PASSWORD_HASH_COST } });
    const registered = await app.inject({
      method: 'POST',
      url: '/api/auth/register/user',
      payload: {
        username: 'storedUser',
        email: 'stored@example.com',
        password: PASSWORD,
        name: 'Stored User',
      },
    });
    assert.equal(registered.statusCode, 201, registered.body);
    assert.equal(registered.body.includes(PASSWORD), false);
    const row = await app.db
      .selectFrom('users')
      .selectAll()
      .where('usernameKey', '=', 'storeduser')
      .executeTakeFirstOrThrow();
    stored = row.passwordHash;

    const [scheme, cost, blockSize, parallelism, salt, key, ...rest] = stored.split('$');
    assert.deepEqual(
      { scheme, cost, blockSize, parallelism, rest },
      { scheme: 'scrypt', cost: '17', blockSize: '8', parallelism: '1', rest: [] },
    );
    assert.ok(Buffer.from(salt!, 'base64url').length >= 16, 'salt shorter than 16 bytes');
    assert.ok(Buffer.from(key!, 'base64url').length >= 32, 'derived key shorter than 32 bytes');

    // Not in the users row, and not anywhere else the application stores data.
    const encodings = [
      PASSWORD,
      Buffer.from(PASSWORD).toString('base64'),
      Buffer.from(PASSWORD).toString('hex'),
    ];
    for (const [column, value] of Object.entries(row)) {
      for (const encoded of encodings) {
        assert.equal(String(value).includes(encoded), false, `users.${column} holds the password`);
      }
    }
    const everything = JSON.stringify(await databaseState(app));
    for (const encoded of encodings) assert.equal(everything.includes(encoded), false);
  });
});
