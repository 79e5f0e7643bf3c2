import { isUsableUser, readStoredUser } from './local-storage';

const user = { id: 'user-1', email: 'ada@example.com', username: 'adalovelace', name: 'Ada Lovelace' };

describe('isUsableUser', () => {
  it('accepts a user with an id, an email and a username', () => {
    expect(isUsableUser(user)).toBe(true);
    expect(isUsableUser({ id: 'user-1', email: 'ada@example.com', username: 'adalovelace' })).toBe(true);
  });

  it.each(['id', 'email', 'username'])('rejects a user without %s', (field) => {
    expect(isUsableUser({ ...user, [field]: undefined })).toBe(false);
    expect(isUsableUser({ ...user, [field]: '' })).toBe(false);
  });

  it.each([null, undefined, 'adalovelace', 42, []])('rejects %p', (value) => {
    expect(isUsableUser(value)).toBe(false);
  });
});

describe('readStoredUser', () => {
  beforeEach(() => window.localStorage.clear());

  it('reads the stored USER', () => {
    window.localStorage.setItem('USER', JSON.stringify(user));
    expect(readStoredUser()).toEqual(user);
  });

  it('is null without a stored user', () => {
    expect(readStoredUser()).toBeNull();
  });

  it('is null for corrupt JSON', () => {
    window.localStorage.setItem('USER', '{"id": "user-1", ');
    expect(readStoredUser()).toBeNull();
  });

  it('is null for a stored user lacking an email', () => {
    window.localStorage.setItem('USER', JSON.stringify({ id: 'user-1', username: 'adalovelace' }));
    expect(readStoredUser()).toBeNull();
  });
});
