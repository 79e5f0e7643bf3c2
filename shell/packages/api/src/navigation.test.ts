import { signInDestination } from './navigation';

describe('signInDestination', () => {
  it('returns to the protected page the guest was sent away from, with its query and hash', () => {
    expect(
      signInDestination({ from: { pathname: '/app/calendar', search: '?week=2026-11-15', hash: '' } }),
    ).toBe('/app/calendar?week=2026-11-15');
    expect(signInDestination({ from: { pathname: '/app/today', search: '', hash: '#task-3' } })).toBe(
      '/app/today#task-3',
    );
  });

  it.each([
    ['no state', null],
    ['no remembered location', {}],
    ['the logout page', { from: { pathname: '/app/logout', search: '' } }],
    ['a public page', { from: { pathname: '/landing', search: '' } }],
    ['the login page', { from: { pathname: '/auth/login', search: '' } }],
    ['/app without a page', { from: { pathname: '/app', search: '' } }],
  ])('goes to the wallet for %s', (_case, state) => {
    expect(signInDestination(state)).toBe('/app/wallet');
  });
});
