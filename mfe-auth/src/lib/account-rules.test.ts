import { validateLogin, validateRegistration } from './account-rules';
import type { RegistrationInput } from './account-rules';

const valid: RegistrationInput = {
  username: 'timekeeper1',
  email: 'ada@example.com',
  password: 'Str0ng!pass',
  name: 'Ada Lovelace',
};

const messageFor = (field: keyof RegistrationInput, value: string) =>
  validateRegistration({ ...valid, [field]: value }).find((error) => error.field === field)?.message;

describe('validateRegistration', () => {
  it('accepts a valid registration', () => {
    expect(validateRegistration(valid)).toEqual([]);
  });

  it.each([
    ['', 'Username must be at least 8 characters'],
    ['short1', 'Username must be at least 8 characters'],
    ['abcdefgh12345678', 'Username must not exceed 15 characters'],
    ['time_keeper', 'Username can only contain letters and digits'],
    ['time keeper', 'Username can only contain letters and digits'],
  ])('username %p: %s', (username, message) => {
    expect(messageFor('username', username)).toBe(message);
  });

  it('accepts usernames of exactly 8 and 15 characters', () => {
    expect(messageFor('username', 'abcd1234')).toBeUndefined();
    expect(messageFor('username', 'abcdefgh1234567')).toBeUndefined();
  });

  it.each([
    ['', 'Email must be at least 5 characters'],
    ['a@b', 'Email must be at least 5 characters'],
    ['ada.example.com', 'Invalid email format'],
    ['ada@example', 'Invalid email format'],
    ['ada @example.com', 'Invalid email format'],
  ])('email %p: %s', (email, message) => {
    expect(messageFor('email', email)).toBe(message);
  });

  it.each([
    ['Ab1!', 'Password must be at least 8 characters'],
    ['Abcdefgh1!Abcdefgh1!x', 'Password must not exceed 20 characters'],
    ['ABCDEFG1!', 'Password must contain at least one lowercase letter'],
    ['abcdefg1!', 'Password must contain at least one uppercase letter'],
    ['Abcdefgh!', 'Password must contain at least one digit'],
    ['Abcdefgh1', 'Password must contain at least one special character (!@#$%^&*)'],
    ['Abcdefg1!?', 'Password can only contain letters, digits, and special characters (!@#$%^&*)'],
    ['Abcdefg1! ', 'Password can only contain letters, digits, and special characters (!@#$%^&*)'],
  ])('password %p: %s', (password, message) => {
    expect(messageFor('password', password)).toBe(message);
  });

  it('counts the name after trimming', () => {
    expect(messageFor('name', '  Ada  ')).toBe('Name must be at least 5 characters');
    expect(messageFor('name', ' Grace ')).toBeUndefined();
  });

  it('reports one message per field in form order', () => {
    expect(validateRegistration({ username: 'a_b', email: 'ab@cd', password: 'abc', name: '' })).toEqual([
      { field: 'username', message: 'Username must be at least 8 characters' },
      { field: 'email', message: 'Invalid email format' },
      { field: 'password', message: 'Password must be at least 8 characters' },
      { field: 'name', message: 'Name must be at least 5 characters' },
    ]);
  });
});

describe('validateLogin', () => {
  it('accepts both fields filled', () => {
    expect(validateLogin({ username: 'timekeeper1', password: 'x' })).toEqual([]);
  });

  it('requires a username and a password', () => {
    expect(validateLogin({ username: '   ', password: '' })).toEqual([
      { field: 'username', message: 'Username is required' },
      { field: 'password', message: 'Password is required' },
    ]);
  });
});
