import { registrationFailureFrom } from './registration-errors';

const answered = (status: number, data: unknown) => ({ status, data });

describe('registrationFailureFrom', () => {
  it.each([
    [
      'Username already exists',
      'username',
      'This username is already taken. Please choose a different one.',
      'Username is already taken',
    ],
    [
      'This username is already in use',
      'username',
      'This username is already taken. Please choose a different one.',
      'Username is already taken',
    ],
    [
      'Invalid username',
      'username',
      'Username must be 3-50 characters and contain only letters, numbers, and underscores.',
      'Invalid username format',
    ],
    [
      'Username has a bad format',
      'username',
      'Username must be 3-50 characters and contain only letters, numbers, and underscores.',
      'Invalid username format',
    ],
    ['Username is reserved', 'username', 'Username error: Username is reserved', 'Username issue'],
    [
      'Email already exists',
      'email',
      'This email is already registered. Try logging in instead.',
      'Email is already registered',
    ],
    [
      'This email is already registered',
      'email',
      'This email is already registered. Try logging in instead.',
      'Email is already registered',
    ],
    ['Invalid email', 'email', 'Please enter a valid email address.', 'Invalid email format'],
    ['Email domain is blocked', 'email', 'Email error: Email domain is blocked', 'Email issue'],
    [
      'Password is too weak',
      'password',
      'Password must contain at least 8 characters with uppercase, lowercase, number, and special character.',
      'Password too weak',
    ],
    [
      'Password strength is insufficient',
      'password',
      'Password must contain at least 8 characters with uppercase, lowercase, number, and special character.',
      'Password too weak',
    ],
    [
      'Invalid password',
      'password',
      'Password must be 8-100 characters with uppercase, lowercase, number, and special character.',
      'Invalid password format',
    ],
    [
      'Password format is wrong',
      'password',
      'Password must be 8-100 characters with uppercase, lowercase, number, and special character.',
      'Invalid password format',
    ],
    [
      'Password was found in a breach',
      'password',
      'Password error: Password was found in a breach',
      'Password issue',
    ],
    ['Name is too short', 'name', 'Name must be at least 5 characters.', 'Invalid name format'],
  ])('maps "%s" to the %s field', (message, field, fieldMessage, general) => {
    expect(registrationFailureFrom(answered(400, { message }))).toEqual({
      fieldErrors: { [field]: fieldMessage },
      general,
    });
  });

  it("reads the server's error text when there is no message", () => {
    expect(registrationFailureFrom(answered(409, { error: 'Email already exists' }))).toEqual({
      fieldErrors: { email: 'This email is already registered. Try logging in instead.' },
      general: 'Email is already registered',
    });
  });

  it("lets 'username' win over 'name'", () => {
    expect(registrationFailureFrom(answered(400, { message: 'Username is not allowed' }))).toEqual({
      fieldErrors: { username: 'Username error: Username is not allowed' },
      general: 'Username issue',
    });
  });

  it('maps an errors array per field with the general hint', () => {
    expect(
      registrationFailureFrom(
        answered(400, {
          message: 'Validation failed',
          errors: [
            { field: 'username', message: 'Username must be 3-50 characters' },
            { field: 'email', message: 'Email has an invalid format' },
            { field: 'email', message: 'A second email problem' },
            { field: 'profilePicture', message: 'Not a field on the form' },
          ],
        }),
      ),
    ).toEqual({
      fieldErrors: { username: 'Username must be 3-50 characters', email: 'Email has an invalid format' },
      general: 'Please fix the validation errors below',
    });
  });

  it('shows an unmatched server text as it is', () => {
    expect(registrationFailureFrom(answered(429, { message: 'Too many requests, slow down' }))).toEqual({
      fieldErrors: {},
      general: 'Too many requests, slow down',
    });
  });

  it.each([
    ['no body', answered(500, null)],
    ['an empty message', answered(500, { message: '' })],
    ['an empty errors array', answered(400, { errors: [] })],
    ['a text body', answered(502, 'Bad Gateway')],
  ])('falls back to the generic text for %s', (_case, error) => {
    expect(registrationFailureFrom(error)).toEqual({
      fieldErrors: {},
      general: 'Registration failed. Please check your information and try again.',
    });
  });

  it.each([
    ['a fetch failure', { status: 'FETCH_ERROR' as const, error: 'TypeError: Failed to fetch' }],
    ['a timeout', { status: 'TIMEOUT_ERROR' as const, error: 'AbortError: The operation timed out' }],
  ])('reports %s as a network problem', (_case, error) => {
    expect(registrationFailureFrom(error)).toEqual({
      fieldErrors: {},
      general: 'Network error. Please check your connection and try again.',
    });
  });
});
