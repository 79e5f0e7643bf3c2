import { parseRuntimeConfig } from './runtime-config';

const remotes = { mfe_auth: 'http://localhost:3001/mf-manifest.json' };

describe('parseRuntimeConfig', () => {
  it('accepts a valid config', () => {
    expect(
      parseRuntimeConfig({ apiBaseUrl: 'https://api.example.com/api', remotes, inactivityTimeoutMs: 5000 }),
    ).toEqual({ apiBaseUrl: 'https://api.example.com/api', remotes, inactivityTimeoutMs: 5000 });
  });

  it('accepts a config without an inactivity timeout', () => {
    expect(parseRuntimeConfig({ apiBaseUrl: '/api', remotes: {} })).toEqual({
      apiBaseUrl: '/api',
      remotes: {},
      inactivityTimeoutMs: undefined,
    });
  });

  it('strips trailing slashes from the API base URL', () => {
    expect(parseRuntimeConfig({ apiBaseUrl: 'https://api.example.com/api/', remotes }).apiBaseUrl).toBe(
      'https://api.example.com/api',
    );
    expect(parseRuntimeConfig({ apiBaseUrl: '/api//', remotes }).apiBaseUrl).toBe('/api');
  });

  it.each([
    ['not an object', null, 'Runtime config is not an object'],
    ['a string', 'config', 'Runtime config is not an object'],
    ['no apiBaseUrl', { remotes }, 'Runtime config lacks apiBaseUrl'],
    ['an empty apiBaseUrl', { apiBaseUrl: '', remotes }, 'Runtime config lacks apiBaseUrl'],
    ['a numeric apiBaseUrl', { apiBaseUrl: 4000, remotes }, 'Runtime config lacks apiBaseUrl'],
    ['no remotes', { apiBaseUrl: '/api' }, 'Runtime config lacks the remotes map'],
    ['a remote that is not a URL string', { apiBaseUrl: '/api', remotes: { mfe_auth: 3001 } }, 'remotes map'],
    [
      'a zero timeout',
      { apiBaseUrl: '/api', remotes, inactivityTimeoutMs: 0 },
      'invalid inactivityTimeoutMs',
    ],
    [
      'a negative timeout',
      { apiBaseUrl: '/api', remotes, inactivityTimeoutMs: -1 },
      'invalid inactivityTimeoutMs',
    ],
    [
      'a text timeout',
      { apiBaseUrl: '/api', remotes, inactivityTimeoutMs: '1000' },
      'invalid inactivityTimeoutMs',
    ],
  ])('rejects %s', (_case, value, message) => {
    expect(() => parseRuntimeConfig(value)).toThrow(message);
  });

  it('rejects remotes given as a list instead of a map by federation name', () => {
    expect(() =>
      parseRuntimeConfig({ apiBaseUrl: '/api', remotes: ['http://localhost:3001/mf-manifest.json'] }),
    ).toThrow('Runtime config lacks the remotes map');
  });
});
