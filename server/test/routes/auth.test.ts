import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { buildTestApp, signUp, send } from '../helpers.js';

const validRegistration = {
  username: 'timeKeeper1',
  email: 'keeper@example.com',
  password: 'Secret12!',
  name: 'Time Keeper',
};

describe('POST /api/auth/register/user', () => {
  test('creates the user and answers 201 with the user JSON', async () => {
    const { app } = await buildTestApp();
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/register/user',
      headers: { 'x-time-zone': 'Europe/Paris' },
      payload: { ...validRegistration, profilePicture: 'https://example.com/me.png' },
    });
    assert.equal(response.statusCode, 201);
    const body = response.json();
    assert.equal(body.message, 'Registration successful');
    assert.equal(body.user.id, body.user._id);
    assert.equal(typeof body.user.id, 'string');
    assert.deepEqual(
      { ...body.user, id: undefined, _id: undefined },
      {
        id: undefined,
        _id: undefined,
        email: 'keeper@example.com',
        username: 'timeKeeper1',
        name: 'Time Keeper',
        profilePicture: 'https://example.com/me.png',
        budgetHours: 15,
        budgetHoursByWeekday: null,
        timeZone: 'Europe/Paris',
      },
    );
    assert.equal('passwordHash' in body.user, false);
  });

  test('accepts what the client form accepts and what the server rules add', async () => {
    const { app } = await buildTestApp();
    const accepted = [
      { username: 'abcdefgh', password: 'Aa1!aaaa' },
      { username: 'abcdefghijklmno', password: 'Aa1!Aa1!Aa1!Aa1!Aa1!' },
      { username: 'a_b', password: 'Aa1-long password with spaces and more than twenty chars' },
      { username: 'x'.repeat(50), password: `Aa1!${'z'.repeat(96)}` },
    ];
    for (const [index, fields] of accepted.entries()) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/register/user',
        payload: { ...validRegistration, ...fields, email: `user${index}@example.com` },
      });
      assert.equal(response.statusCode, 201, `${JSON.stringify(fields)}: ${response.body}`);
    }
  });

  test('rejects invalid fields with 400 and one message per field', async () => {
    const { app } = await buildTestApp();
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/register/user',
      payload: { username: 'ab', email: 'not-an-email', password: 'password', name: '  abc  ' },
    });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), {
      message: 'Validation failed',
      errors: [
        { field: 'username', message: 'Username must be at least 3 characters' },
        { field: 'email', message: 'Invalid email format' },
        { field: 'password', message: 'Password must contain at least one uppercase letter' },
        { field: 'name', message: 'Name must be at least 5 characters' },
      ],
    });
  });

  test('names each password rule that fails', async () => {
    const { app } = await buildTestApp();
    const cases: Array<[string, string]> = [
      ['Aa1!', 'Password must be at least 8 characters'],
      [`Aa1!${'a'.repeat(97)}`, 'Password must not exceed 100 characters'],
      ['AAAAAA1!', 'Password must contain at least one lowercase letter'],
      ['aaaaaaA!', 'Password must contain at least one digit'],
      ['aaaaaaA1', 'Password must contain at least one special character (!@#$%^&*)'],
    ];
    for (const [password, message] of cases) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/register/user',
        payload: { ...validRegistration, password },
      });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json().errors, [{ field: 'password', message }]);
    }
  });

  test('reports missing fields and rejects unknown ones', async () => {
    const { app } = await buildTestApp();
    const missing = await app.inject({ method: 'POST', url: '/api/auth/register/user', payload: {} });
    assert.equal(missing.statusCode, 400);
    assert.deepEqual(
      missing.json().errors.map((error: { field: string }) => error.field),
      ['username', 'email', 'password', 'name'],
    );
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/auth/register/user',
      payload: { ...validRegistration, isAdmin: true },
    });
    assert.equal(unknown.statusCode, 400);
    assert.deepEqual(unknown.json().errors, [
      { field: 'isAdmin', message: 'isAdmin is not an accepted field' },
    ]);
  });

  test('answers 409 for a taken username or email, whatever their case', async () => {
    const { app } = await buildTestApp();
    await app.inject({ method: 'POST', url: '/api/auth/register/user', payload: validRegistration });
    const sameUsername = await app.inject({
      method: 'POST',
      url: '/api/auth/register/user',
      payload: { ...validRegistration, username: 'TIMEKEEPER1', email: 'other@example.com' },
    });
    assert.equal(sameUsername.statusCode, 409);
    assert.deepEqual(sameUsername.json(), { message: 'Username already exists' });
    const sameEmail = await app.inject({
      method: 'POST',
      url: '/api/auth/register/user',
      payload: { ...validRegistration, username: 'anotherOne', email: 'Keeper@Example.COM' },
    });
    assert.equal(sameEmail.statusCode, 409);
    assert.deepEqual(sameEmail.json(), { message: 'Email already exists' });
  });
});

describe('POST /api/auth/register', () => {
  test('derives a unique username from the email and signs the user in', async () => {
    const { app } = await buildTestApp();
    const first = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'jo.smith@example.com', password: 'Secret12!', name: 'Jo Smith' },
    });
    assert.equal(first.statusCode, 201);
    assert.equal(first.json().user.username, 'josmith');
    const me = await app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${first.json().token}` },
    });
    assert.equal(me.statusCode, 200);
    assert.equal(me.json().user.email, 'jo.smith@example.com');

    const second = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'jo.smith@example.org', password: 'Secret12!', name: 'Jo Smith' },
    });
    assert.equal(second.statusCode, 201);
    assert.match(second.json().user.username, /^josmith\d+$/);
  });

  test('validates like registration and rejects a taken email', async () => {
    const { app } = await buildTestApp();
    const invalid = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'a@b', password: 'x' },
    });
    assert.equal(invalid.statusCode, 400);
    assert.deepEqual(
      invalid.json().errors.map((error: { field: string }) => error.field),
      ['email', 'password', 'name'],
    );
    await app.inject({ method: 'POST', url: '/api/auth/register/user', payload: validRegistration });
    const taken = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: validRegistration.email, password: 'Secret12!', name: 'Someone Else' },
    });
    assert.equal(taken.statusCode, 409);
    assert.deepEqual(taken.json(), { message: 'Email already exists' });
  });
});

describe('POST /api/auth/login', () => {
  test('signs in by username, by email in the username field, or by email', async () => {
    const { app } = await buildTestApp();
    await app.inject({ method: 'POST', url: '/api/auth/register/user', payload: validRegistration });
    for (const credentials of [
      { username: 'timeKeeper1', password: 'Secret12!' },
      { username: 'TimeKeeper1', password: 'Secret12!' },
      { username: 'keeper@example.com', password: 'Secret12!' },
      { email: 'KEEPER@example.com', password: 'Secret12!' },
    ]) {
      const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: credentials });
      assert.equal(response.statusCode, 200, JSON.stringify(credentials));
      const body = response.json();
      assert.equal(body.message, 'Login successful');
      assert.equal(body.user.username, 'timeKeeper1');
      assert.equal(body.token.split('.').length, 3);
    }
  });

  test('answers the same 401 for a wrong password and an unknown user', async () => {
    const { app } = await buildTestApp();
    await app.inject({ method: 'POST', url: '/api/auth/register/user', payload: validRegistration });
    const wrongPassword = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'timeKeeper1', password: 'Wrong123!' },
    });
    const unknownUser = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'nobodyHere', password: 'Wrong123!' },
    });
    assert.equal(wrongPassword.statusCode, 401);
    assert.equal(unknownUser.statusCode, 401);
    assert.deepEqual(wrongPassword.json(), { message: 'Invalid username or password' });
    assert.deepEqual(unknownUser.json(), wrongPassword.json());
  });

  test('requires an identifier and a password', async () => {
    const { app } = await buildTestApp();
    const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { password: '' } });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json().errors, [
      { field: 'username', message: 'Username is required' },
      { field: 'password', message: 'Password is required' },
    ]);
  });

  test('locks an account after repeated failures with 429 and Retry-After, known or not', async () => {
    const { app, clock } = await buildTestApp();
    await app.inject({ method: 'POST', url: '/api/auth/register/user', payload: validRegistration });
    for (const username of ['timeKeeper1', 'ghostAccount']) {
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const failure = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username, password: 'Wrong123!' },
        });
        assert.equal(failure.statusCode, 401);
      }
      const locked = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username, password: 'Secret12!' },
      });
      assert.equal(locked.statusCode, 429);
      assert.equal(typeof locked.json().message, 'string');
      assert.equal(locked.headers['retry-after'], String(15 * 60));
    }
    clock.now += 15 * 60_000 + 1;
    const afterWindow = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'timeKeeper1', password: 'Secret12!' },
    });
    assert.equal(afterWindow.statusCode, 200);
  });

  for (const store of ['memory', 'database'] as const) {
    test(`limits sign-in requests per IP with 429 and Retry-After (${store} store)`, async () => {
      const { app } = await buildTestApp({ rateLimit: { authPerMinute: 3, store } });
      const statuses: number[] = [];
      let last;
      for (let attempt = 0; attempt < 4; attempt += 1) {
        last = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: `someone${attempt}`, password: 'Wrong123!' },
        });
        statuses.push(last.statusCode);
      }
      assert.deepEqual(statuses, [401, 401, 401, 429]);
      assert.ok(Number(last!.headers['retry-after']) > 0);
      assert.match(last!.json().message, /Too many requests/);
    });
  }
});

describe('sessions', () => {
  test('validate and me answer with the signed-in user', async () => {
    const { app } = await buildTestApp();
    const { headers, user } = await signUp(app);
    const validate = await app.inject({ method: 'GET', url: '/api/auth/validate', headers });
    assert.equal(validate.statusCode, 200);
    assert.deepEqual(validate.json(), { valid: true, user });
    const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers });
    assert.deepEqual(me.json(), { user });
  });

  test('logout revokes the token on the server', async () => {
    const { app } = await buildTestApp();
    const first = await signUp(app);
    const second = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: first.user.username, password: first.password },
    });
    const otherSession = { authorization: `Bearer ${second.json().token}` };
    const logout = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: first.headers });
    assert.equal(logout.statusCode, 204);
    assert.equal(logout.body, '');
    const afterLogout = await send(app, first.headers, 'GET', '/api/auth/validate');
    assert.equal(afterLogout.statusCode, 401);
    assert.deepEqual(afterLogout.json(), { message: 'Unauthorized' });
    const stillSignedIn = await send(app, otherSession, 'GET', '/api/auth/validate');
    assert.equal(stillSignedIn.statusCode, 200);
  });

  test('logout accepts an empty JSON body', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app);
    const logout = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { ...headers, 'content-type': 'application/json' },
    });
    assert.equal(logout.statusCode, 204);
  });

  test('answers the same 401 for missing, malformed, forged, alg:none and expired tokens', async () => {
    const { app, clock } = await buildTestApp();
    const { token, user } = await signUp(app);
    const [header, payload] = token.split('.');
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setJti('made-up')
      .setIssuer('time-wallet')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-that-is-long-enough-000000000'));
    const candidates: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer' },
      { authorization: 'Basic abc' },
      { authorization: `Bearer ${header}.${payload}.tampered` },
      { authorization: `Bearer ${unsigned}` },
      { authorization: `Bearer ${forged}` },
    ];
    for (const headers of candidates) {
      const response = await app.inject({ method: 'GET', url: '/api/auth/me', headers });
      assert.equal(response.statusCode, 401, JSON.stringify(headers));
      assert.deepEqual(response.json(), { message: 'Unauthorized' });
    }
    clock.now += 8 * 24 * 3600 * 1000;
    const expired = await app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(expired.statusCode, 401);
    assert.deepEqual(expired.json(), { message: 'Unauthorized' });
  });
});

async function latestResetLink(dataDir: string): Promise<{ text: string; token: string }> {
  const outbox = path.join(dataDir, 'outbox');
  const files = (await readdir(outbox)).sort();
  const text = await readFile(path.join(outbox, files.at(-1)!), 'utf8');
  const match = /http:\/\/localhost:3000\/auth\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(text);
  assert.ok(match, text);
  return { text, token: match[1]! };
}

describe('password reset', () => {
  test('mails a link to the outbox and answers 202 whether or not the account exists', async () => {
    const { app, dataDir } = await buildTestApp();
    const { user } = await signUp(app);
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: 'nobody@example.com' },
    });
    const known = await app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: user.email },
    });
    assert.equal(unknown.statusCode, 202);
    assert.equal(known.statusCode, 202);
    assert.deepEqual(unknown.json(), known.json());
    await app.mailer.flush();
    const outbox = await readdir(path.join(dataDir, 'outbox'));
    assert.equal(outbox.length, 1);
    const { text } = await latestResetLink(dataDir);
    assert.match(text, new RegExp(`To: ${user.email}`));
  });

  test('sets the new password once, revokes every session and refuses reuse', async () => {
    const { app, dataDir } = await buildTestApp();
    const { user, headers, password } = await signUp(app);
    await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: user.email } });
    await app.mailer.flush();
    const { token } = await latestResetLink(dataDir);

    const weak = await app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'weak' },
    });
    assert.equal(weak.statusCode, 400);
    assert.equal(weak.json().errors[0].field, 'password');

    const reset = await app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'N3w-Secret!' },
    });
    assert.equal(reset.statusCode, 200);
    assert.equal(typeof reset.json().message, 'string');

    const oldSession = await app.inject({ method: 'GET', url: '/api/auth/me', headers });
    assert.equal(oldSession.statusCode, 401);
    const oldPassword = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: user.username, password },
    });
    assert.equal(oldPassword.statusCode, 401);
    const newPassword = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: user.username, password: 'N3w-Secret!' },
    });
    assert.equal(newPassword.statusCode, 200);

    const reused = await app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'An0ther-One!' },
    });
    assert.equal(reused.statusCode, 400);
    assert.match(reused.json().message, /already been used/);
  });

  test('refuses an expired or unknown token', async () => {
    const { app, dataDir, clock } = await buildTestApp();
    const { user } = await signUp(app);
    await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: user.email } });
    await app.mailer.flush();
    const { token } = await latestResetLink(dataDir);
    clock.now += 30 * 60_000 + 1;
    const expired = await app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'N3w-Secret!' },
    });
    assert.equal(expired.statusCode, 400);
    assert.match(expired.json().message, /expired/);
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: 'not-a-token', password: 'N3w-Secret!' },
    });
    assert.equal(unknown.statusCode, 400);
    assert.match(unknown.json().message, /invalid/);
  });
});

describe('what the client form accepts, the server accepts', () => {
  test('every password, username, name and email that passes SPEC section 5 registers', async () => {
    const { app } = await buildTestApp();
    const specials = '!@#$%^&*';
    const accepted: Array<Partial<typeof validRegistration>> = [
      { password: 'Abcdef1!' },
      { password: 'Aa1!@#$%^&*Bb2Cc3Dd4' },
      { password: `${specials}Aa1${'z'.repeat(9)}` },
      ...[...specials].map((special) => ({ password: `Abcdef1${special}` })),
      { username: 'abcdefghij12345' },
      { username: 'ABCDEFGH' },
      { username: '12345678' },
      { name: '  Jo Ann  ' },
      { name: ' Abcde ' },
      { name: 'Zoë Ångström' },
      { email: 'a@b.co' },
    ];
    for (const [index, fields] of accepted.entries()) {
      const registration = {
        ...validRegistration,
        username: `clientOk${index}`,
        email: `client${index}@example.com`,
        ...fields,
      };
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/register/user',
        payload: registration,
      });
      assert.equal(response.statusCode, 201, `${JSON.stringify(fields)}: ${response.body}`);
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: registration.username, password: registration.password },
      });
      assert.equal(login.statusCode, 200, `login with ${JSON.stringify(fields)}`);
    }
  });

  test('409 messages name the field and say "already exists", as the client keyword mapping needs', async () => {
    const { app } = await buildTestApp();
    await app.inject({ method: 'POST', url: '/api/auth/register/user', payload: validRegistration });
    for (const [fields, keyword] of [
      [{ username: 'TimeKeeper1', email: 'fresh@example.com' }, 'username'],
      [{ username: 'freshName1', email: 'KEEPER@EXAMPLE.COM' }, 'email'],
    ] as const) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/register/user',
        payload: { ...validRegistration, ...fields },
      });
      assert.equal(response.statusCode, 409);
      const message = response.json().message.toLowerCase();
      assert.ok(message.includes(keyword) && message.includes('already exists'), message);
    }
  });
});

describe('tokens and limits', () => {
  test('only HS256 with this server’s secret is accepted: HS512 with the same secret is not', async () => {
    const { app } = await buildTestApp();
    const { token } = await signUp(app);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
    const secret = new TextEncoder().encode('test-secret-that-is-long-enough-for-hs256-0123456789');
    const hs512 = await new SignJWT(claims).setProtectedHeader({ alg: 'HS512', typ: 'JWT' }).sign(secret);
    const hs256 = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secret);
    const noExpiry = await new SignJWT({ ...claims, exp: undefined })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(secret);
    const answers = [];
    for (const candidate of [hs512, hs256, noExpiry]) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/auth/validate',
        headers: { authorization: `Bearer ${candidate}` },
      });
      answers.push(response.statusCode);
    }
    assert.deepEqual(answers, [401, 200, 401]);
  });

  for (const store of ['memory', 'database'] as const) {
    test(`every route is limited per IP, signed in or not, with 429, Retry-After and a JSON message (${store} store)`, async () => {
      const { app } = await buildTestApp({ rateLimit: { globalPerMinute: 3, store } });
      const statuses: number[] = [];
      let last;
      for (let attempt = 0; attempt < 4; attempt += 1) {
        last = await app.inject({ method: 'GET', url: '/api/categories' });
        statuses.push(last.statusCode);
      }
      assert.deepEqual(statuses, [401, 401, 401, 429]);
      assert.ok(Number(last!.headers['retry-after']) > 0);
      assert.deepEqual(Object.keys(last!.json()), ['message']);
      const otherAddress = await app.inject({
        method: 'GET',
        url: '/api/categories',
        remoteAddress: '10.0.0.2',
      });
      assert.equal(otherAddress.statusCode, 401);
      const health = await app.inject({ method: 'GET', url: '/api/health' });
      assert.equal(health.statusCode, 200);
    });
  }

  test('the generated JWT secret lives in DATA_DIR and, like tokens and passwords, never reaches the log', async () => {
    const lines: string[] = [];
    const { app, dataDir } = await buildTestApp({
      config: { jwtSecret: undefined },
      env: { LOG_LEVEL: 'trace' },
      logStream: { write: (line: string) => void lines.push(line) },
    });
    const secret = (await readFile(path.join(dataDir, 'jwt-secret'), 'utf8')).trim();
    assert.equal(app.config.jwtSecret, secret);
    const { token, password } = await signUp(app);
    await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'nobody', password } });
    const log = lines.join('\n');
    assert.ok(log.includes('incoming request'), 'the log was captured');
    for (const [label, value] of [
      ['secret', secret],
      ['token', token],
      ['password', password],
    ] as const) {
      assert.equal(log.includes(value), false, `the ${label} is in the log`);
    }
  });
});

describe('POST /api/auth/change-password', () => {
  const changeWith = (
    app: Awaited<ReturnType<typeof buildTestApp>>['app'],
    headers: Record<string, string>,
    payload: object,
  ) => app.inject({ method: 'POST', url: '/api/auth/change-password', headers, payload });

  test('changes the password, keeps this session and signs out every other one', async () => {
    const { app, dataDir } = await buildTestApp();
    const { user, headers, password } = await signUp(app);
    const otherSessions = [];
    for (let index = 0; index < 2; index += 1) {
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: user.username, password },
      });
      otherSessions.push({ authorization: `Bearer ${login.json().token}` });
    }
    // A reset link asked for before the change must not undo it.
    await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: user.email } });
    await app.mailer.flush();
    const { token: pendingReset } = await latestResetLink(dataDir);

    const changed = await changeWith(app, headers, { currentPassword: password, newPassword: 'N3w-Secret!' });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.deepEqual(changed.json(), {
      message: 'Your password has been changed. Other sessions were signed out.',
    });

    const validate = (sessionHeaders: Record<string, string>) =>
      app.inject({ method: 'GET', url: '/api/auth/validate', headers: sessionHeaders });
    assert.equal((await validate(headers)).statusCode, 200);
    for (const sessionHeaders of otherSessions)
      assert.equal((await validate(sessionHeaders)).statusCode, 401);
    const login = (attempt: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: user.username, password: attempt },
      });
    assert.equal((await login(password)).statusCode, 401);
    assert.equal((await login('N3w-Secret!')).statusCode, 200);
    const reset = await app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: pendingReset, password: 'An0ther-One!' },
    });
    assert.equal(reset.statusCode, 400);
    assert.equal((await login('N3w-Secret!')).statusCode, 200);
  });

  test('the new password follows the registration rules; nothing changes when it fails', async () => {
    const { app } = await buildTestApp();
    const { headers, password, user } = await signUp(app);
    const cases: Array<[object, Array<{ field: string; message: string }>]> = [
      [
        { currentPassword: password, newPassword: 'Abcdefgh!' },
        [{ field: 'newPassword', message: 'Password must contain at least one digit' }],
      ],
      [
        { currentPassword: password, newPassword: 'Aa1!' },
        [{ field: 'newPassword', message: 'Password must be at least 8 characters' }],
      ],
      [
        { currentPassword: password, newPassword: '' },
        [{ field: 'newPassword', message: 'New password is required' }],
      ],
      [
        { currentPassword: '', newPassword: 'weak' },
        [
          { field: 'currentPassword', message: 'Current password is required' },
          { field: 'newPassword', message: 'Password must be at least 8 characters' },
        ],
      ],
    ];
    for (const [payload, errors] of cases) {
      const response = await changeWith(app, headers, payload);
      assert.equal(response.statusCode, 400, JSON.stringify(payload));
      assert.deepEqual(response.json(), { message: 'Validation failed', errors });
    }
    for (const payload of [{ currentPassword: password }, { newPassword: 'N3w-Secret!' }, {}]) {
      const response = await changeWith(app, headers, payload);
      assert.equal(response.statusCode, 400, JSON.stringify(payload));
      assert.equal(response.json().message, 'Validation failed');
    }
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: user.username, password },
    });
    assert.equal(login.statusCode, 200);
  });

  test('a wrong current password is 403, counts as a failed attempt, and past the limit answers 429', async () => {
    const { app } = await buildTestApp();
    const { headers, password } = await signUp(app);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await changeWith(app, headers, {
        currentPassword: 'Wrong123!',
        newPassword: 'N3w-Secret!',
      });
      assert.equal(wrong.statusCode, 403);
      assert.deepEqual(wrong.json(), {
        message: 'Current password is incorrect',
        errors: [{ field: 'currentPassword', message: 'Current password is incorrect' }],
      });
    }
    const locked = await changeWith(app, headers, { currentPassword: password, newPassword: 'N3w-Secret!' });
    assert.equal(locked.statusCode, 429);
    assert.equal(locked.headers['retry-after'], String(15 * 60));
    assert.equal(typeof locked.json().message, 'string');
    // The session itself is untouched.
    assert.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers })).statusCode, 200);
  });

  test('needs a session', async () => {
    const { app } = await buildTestApp();
    const response = await changeWith(app, {}, { currentPassword: 'Passw0rd!', newPassword: 'N3w-Secret!' });
    assert.equal(response.statusCode, 401);
    assert.deepEqual(response.json(), { message: 'Unauthorized' });
  });
});

describe('password reset abuse', () => {
  const forgot = (app: Awaited<ReturnType<typeof buildTestApp>>['app'], email: string) =>
    app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } });

  test('at most 3 reset mails per account an hour; past it the same 202, and no mail or token', async () => {
    const { app, dataDir, clock } = await buildTestApp();
    const { user } = await signUp(app);
    const answers = [];
    for (let attempt = 0; attempt < 5; attempt += 1) answers.push(await forgot(app, user.email));
    // Concurrent requests cannot slip past the count either.
    answers.push(...(await Promise.all(Array.from({ length: 6 }, () => forgot(app, user.email)))));
    for (const answer of answers) {
      assert.equal(answer.statusCode, 202);
      assert.deepEqual(answer.json(), answers[0]!.json());
    }
    await app.mailer.flush();
    assert.equal((await readdir(path.join(dataDir, 'outbox'))).length, 3);
    const tokens = await app.db.selectFrom('passwordResets').select('tokenHash').execute();
    assert.equal(tokens.length, 3);

    clock.now += 60 * 60_000 + 1;
    assert.equal((await forgot(app, user.email)).statusCode, 202);
    await app.mailer.flush();
    assert.equal((await readdir(path.join(dataDir, 'outbox'))).length, 4);
    const { token } = await latestResetLink(dataDir);
    const reset = await app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'N3w-Secret!' },
    });
    assert.equal(reset.statusCode, 200, reset.body);
  });

  test('a new reset link invalidates the older ones: one live link per account', async () => {
    const { app, dataDir, clock } = await buildTestApp();
    const { user } = await signUp(app);
    const links = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await forgot(app, user.email);
      await app.mailer.flush();
      links.push((await latestResetLink(dataDir)).token);
      // The outbox names sort by sending time; a millisecond apart keeps "latest" unambiguous.
      await new Promise((resolve) => setTimeout(resolve, 2));
      clock.now += 1000;
    }
    assert.equal(new Set(links).size, 3);
    for (const older of links.slice(0, 2)) {
      const refused = await app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { token: older, password: 'N3w-Secret!' },
      });
      assert.equal(refused.statusCode, 400, older);
      assert.match(refused.json().message, /expired/);
    }
    const newest = await app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: links[2], password: 'N3w-Secret!' },
    });
    assert.equal(newest.statusCode, 200, newest.body);
  });

  test('the mail text is single-line where it holds the account name', async () => {
    const { app, dataDir } = await buildTestApp();
    const name = 'Eve Il\r\nBcc: everyone@example.com\n\nClick https://evil.example/\u2028now\u202e';
    const registered = await app.inject({
      method: 'POST',
      url: '/api/auth/register/user',
      payload: { username: 'multiLine', email: 'multi@example.com', password: 'Secret12!', name },
    });
    assert.equal(registered.statusCode, 201, registered.body);
    await forgot(app, 'multi@example.com');
    await app.mailer.flush();
    const { text } = await latestResetLink(dataDir);
    const body = text.split('\r\n\r\n').slice(1).join('\r\n\r\n');
    const lines = body.split(/\r\n|\n|\r|\u2028|\u2029/);
    assert.equal(lines[0], 'Hello Eve Il Bcc: everyone@example.com Click https://evil.example/ now,');
    assert.equal(lines.filter((line) => line.startsWith('Bcc:')).length, 0);
    assert.equal(lines.filter((line) => line.startsWith('Click')).length, 0);
    assert.doesNotMatch(text, /[\u202a-\u202e]/);
  });
});
