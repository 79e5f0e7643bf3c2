import { execFileSync } from 'node:child_process';
import {
  accountOf,
  connectOriginsOf,
  deploymentOf,
  documentFor,
  HASHED_FILE,
  isLogout,
  reachableDeployment,
  routeOf,
  WARM_MESSAGE_TYPE,
  WARM_URL_LIMIT,
  warmRequestOf,
  warmTargets,
  type Deployment,
  type RequestFacts,
} from './routes';

const SHELL = 'http://localhost:3000';
const API = 'http://localhost:4000/api';
const TAGS = 'http://localhost:3005';
const deployment: Deployment = {
  apiBaseUrl: API,
  remoteOrigins: ['http://localhost:3002', TAGS],
};

const get = (url: string, mode = 'cors'): RequestFacts => ({ url, method: 'GET', mode });
const route = (request: RequestFacts, known: Deployment | null = deployment) =>
  routeOf(request, SHELL, known);

describe('routeOf', () => {
  it('sends the shell documents network-first with the precache offline', () => {
    expect(route(get(`${SHELL}/app/today`, 'navigate'))).toBe('page');
    expect(route(get(`${SHELL}/`, 'navigate'), null)).toBe('page');
  });

  it('reads the runtime config network-first, even before the worker knows a deployment', () => {
    expect(route(get(`${SHELL}/config.json`))).toBe('runtime-config');
    expect(route(get(`${SHELL}/config.json`), null)).toBe('runtime-config');
  });

  it("keeps the shell's unhashed files network-first and its hashed chunks cache-first", () => {
    expect(route(get(`${SHELL}/main.js`))).toBe('shell-file');
    expect(route(get(`${SHELL}/manifest.webmanifest`))).toBe('shell-file');
    expect(route(get(`${SHELL}/framework.07fbee67.js`))).toBe('immutable');
  });

  it('never routes the worker itself', () => {
    expect(route(get(`${SHELL}/sw.js`))).toBeNull();
  });

  it("treats a remote's version folders and hashed chunks as immutable, its manifest and root entry as mutable", () => {
    expect(route(get(`${TAGS}/v/1.2.0/remoteEntry.js`, 'no-cors'))).toBe('immutable');
    expect(route(get(`${TAGS}/v/1.2.0/mf-manifest.json`))).toBe('immutable');
    expect(route(get(`${TAGS}/__federation_expose_TagsPage.1a2b3c4d.js`, 'no-cors'))).toBe('immutable');
    expect(route(get(`${TAGS}/mf-manifest.json`))).toBe('remote-file');
    expect(route(get(`${TAGS}/remoteEntry.js`, 'no-cors'))).toBe('remote-file');
  });

  it('leaves other origins alone, and remotes too until a config names them', () => {
    expect(route(get('http://localhost:3009/remoteEntry.js'))).toBeNull();
    expect(route(get(`${TAGS}/remoteEntry.js`), null)).toBeNull();
    expect(route(get(`${API}/tasks/today`), null)).toBeNull();
  });

  it("caches the API's reads but never its session checks, and never answers its writes", () => {
    expect(route(get(`${API}/tasks/today`))).toBe('api-read');
    expect(route(get(`${API}/ledger?from=2026-11-23&to=2026-11-29`))).toBe('api-read');
    expect(route(get(`${API}/auth/validate`))).toBeNull();
    expect(route({ url: `${API}/tasks`, method: 'POST', mode: 'cors' })).toBe('api-write');
    expect(route({ url: `${API}/auth/logout`, method: 'POST', mode: 'cors' })).toBe('api-write');
    // A path that only starts like the API's base is not the API.
    expect(route(get('http://localhost:4000/apiary/x'))).toBeNull();
    expect(route({ url: `${SHELL}/form`, method: 'POST', mode: 'cors' })).toBeNull();
  });

  it('resolves a relative API base URL against the shell', () => {
    const sameOrigin: Deployment = { apiBaseUrl: '/api', remoteOrigins: [] };
    expect(route(get(`${SHELL}/api/tasks/today`), sameOrigin)).toBe('api-read');
    expect(route(get(`${SHELL}/api/auth/validate`), sameOrigin)).toBeNull();
  });

  it('routes nothing it cannot parse', () => {
    expect(route(get('not a url'))).toBeNull();
  });
});

describe('the immutable rule', () => {
  it('matches exactly the files the static servers send as immutable', () => {
    const files = [
      'framework.07fbee67.js',
      'assets/logo.0a1b2c3d.svg',
      'main.js',
      'remoteEntry.js',
      'mf-manifest.json',
      'app.0435efe.js',
      'style.0435efe2.css',
    ];
    // The static server is an ES module for Node: asked in a Node of its own.
    const serverSays = JSON.parse(
      execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { cacheControlFor } from '@time-wallet/devkit/serve';
           console.log(JSON.stringify(${JSON.stringify(files)}.map((file) => cacheControlFor(file).includes('immutable'))));`,
        ],
        { encoding: 'utf8' },
      ),
    ) as boolean[];
    expect(files.map((file) => HASHED_FILE.test(`/${file}`))).toEqual(serverSays);
    expect(serverSays).toContain(true);
    expect(serverSays).toContain(false);
  });
});

describe('isLogout', () => {
  it('is a write to the API at /auth/logout', () => {
    expect(isLogout({ url: `${API}/auth/logout`, method: 'POST', mode: 'cors' }, SHELL, deployment)).toBe(
      true,
    );
    expect(isLogout(get(`${API}/auth/logout`), SHELL, deployment)).toBe(false);
    expect(isLogout({ url: `${API}/auth/login`, method: 'POST', mode: 'cors' }, SHELL, deployment)).toBe(
      false,
    );
    expect(isLogout({ url: `${API}/auth/logout`, method: 'POST', mode: 'cors' }, SHELL, null)).toBe(false);
  });
});

describe('deploymentOf', () => {
  it("reads the API and each remote's origin from a runtime config", () => {
    expect(
      deploymentOf({
        apiBaseUrl: `${API}/`,
        remotes: {
          mfe_tags: `${TAGS}/v/1.2.0/mf-manifest.json`,
          mfe_wallet: 'http://localhost:3002/mf-manifest.json',
          mfe_auth: `${TAGS}/mf-manifest.json`,
        },
      }),
    ).toEqual({ apiBaseUrl: API, remoteOrigins: [TAGS, 'http://localhost:3002'] });
  });

  it('refuses a config the shell would refuse', () => {
    expect(deploymentOf(null)).toBeNull();
    expect(deploymentOf({ remotes: {} })).toBeNull();
    expect(deploymentOf({ apiBaseUrl: API })).toBeNull();
    expect(deploymentOf({ apiBaseUrl: API, remotes: { mfe_tags: 'not a url' } })).toBeNull();
  });
});

describe('accountOf', () => {
  const jwt = (payload: object) =>
    ['eyJhbGciOiJIUzI1NiJ9', btoa(JSON.stringify(payload)).replace(/=+$/, ''), 'signature'].join('.');

  it("is the session token's subject, the same for two sessions of one person", () => {
    expect(accountOf(`Bearer ${jwt({ sub: 'u1', jti: 'a' })}`)).toBe('user:u1');
    expect(accountOf(`Bearer ${jwt({ sub: 'u1', jti: 'b' })}`)).toBe('user:u1');
    expect(accountOf(`Bearer ${jwt({ sub: 'u2', jti: 'a' })}`)).toBe('user:u2');
  });

  it('is the token itself when it is not a JWT with a subject, and null without one', () => {
    expect(accountOf('Bearer opaque-token')).toBe('token:opaque-token');
    expect(accountOf(`Bearer ${jwt({ jti: 'a' })}`)).toMatch(/^token:/);
    expect(accountOf(null)).toBeNull();
    expect(accountOf('Basic dXNlcjpwYXNz')).toBeNull();
  });
});

describe('documentFor', () => {
  const prerendered = { '/': 'landing.html', '/app/today': 'app/today.html' };

  it('is the page prerendered for a path, else the app document', () => {
    expect(documentFor('/app/today', prerendered)).toBe('/app/today.html');
    expect(documentFor('/app/today/', prerendered)).toBe('/app/today.html');
    expect(documentFor('/', prerendered)).toBe('/landing.html');
    expect(documentFor('/app/about', prerendered)).toBe('/index.html');
    expect(documentFor('/toString', prerendered)).toBe('/index.html');
  });
});

describe("the worker's own reach", () => {
  const policy =
    "default-src 'self'; script-src 'self' http://localhost:3005; connect-src 'self' http://localhost:3005 http://localhost:4000";

  it("is the connect-src of the policy its script was served with, 'self' being the shell", () => {
    expect(connectOriginsOf(policy, SHELL)).toEqual([SHELL, TAGS, 'http://localhost:4000']);
    expect(connectOriginsOf("default-src 'self'", SHELL)).toEqual([SHELL]);
    expect(connectOriginsOf("script-src 'self'", SHELL)).toBeNull();
    expect(connectOriginsOf('connect-src *', SHELL)).toBeNull();
    expect(connectOriginsOf(null, SHELL)).toBeNull();
  });

  it('leaves to the page a remote or an API on an origin the policy does not name', () => {
    const allowed = connectOriginsOf(policy, SHELL);
    const reachable = reachableDeployment(deployment, allowed, SHELL);
    expect(reachable.remoteOrigins).toEqual([TAGS]);
    expect(route(get('http://localhost:3002/remoteEntry.js'), reachable)).toBeNull();
    expect(route(get(`${TAGS}/remoteEntry.js`), reachable)).toBe('remote-file');
    expect(route(get(`${API}/tasks/today`), reachable)).toBe('api-read');

    const apiMoved = reachableDeployment(
      { ...deployment, apiBaseUrl: 'http://localhost:4001/api' },
      allowed,
      SHELL,
    );
    expect(route(get('http://localhost:4001/api/tasks/today'), apiMoved)).toBeNull();
    expect(reachableDeployment(deployment, null, SHELL)).toBe(deployment);
  });
});

describe('warming what a page loaded', () => {
  const warm = (urls: string[], known: Deployment | null = deployment) => warmTargets(urls, SHELL, known);

  it("keeps what the worker's own caches hold: remotes' files, the config and the API's reads", () => {
    expect(
      warm([
        `${SHELL}/app/today`,
        `${SHELL}/main.js`,
        `${SHELL}/framework.07fbee67.js`,
        `${SHELL}/config.json`,
        `${TAGS}/mf-manifest.json`,
        `${TAGS}/remoteEntry.js`,
        `${TAGS}/__federation_expose_TagsPage.1a2b3c4d.js`,
        `${API}/tasks/today`,
        `${API}/auth/validate`,
        'http://localhost:3009/elsewhere.js',
      ]),
    ).toEqual([
      // The precache's own files are filtered by the worker, which knows the precache.
      { url: `${SHELL}/framework.07fbee67.js`, route: 'immutable' },
      { url: `${SHELL}/config.json`, route: 'runtime-config' },
      { url: `${TAGS}/mf-manifest.json`, route: 'remote-file' },
      { url: `${TAGS}/remoteEntry.js`, route: 'remote-file' },
      { url: `${TAGS}/__federation_expose_TagsPage.1a2b3c4d.js`, route: 'immutable' },
      { url: `${API}/tasks/today`, route: 'api-read' },
    ]);
  });

  it('asks for each once, never for what it cannot parse, and only for the shell before a config is known', () => {
    expect(
      warm([`${TAGS}/remoteEntry.js#x`, `${TAGS}/remoteEntry.js`, 'not a url', 'data:text/plain,hi']),
    ).toEqual([{ url: `${TAGS}/remoteEntry.js`, route: 'remote-file' }]);
    expect(warm([`${TAGS}/remoteEntry.js`, `${API}/tasks/today`, `${SHELL}/config.json`], null)).toEqual([
      { url: `${SHELL}/config.json`, route: 'runtime-config' },
    ]);
  });

  it('takes at most a bounded number of URLs', () => {
    const many = Array.from({ length: WARM_URL_LIMIT * 2 }, (_, index) => `${API}/tasks/${index}`);
    expect(warm(many)).toHaveLength(WARM_URL_LIMIT);
    expect(warmTargets(many, SHELL, deployment, 3)).toHaveLength(3);
  });

  it("reads a page's message: its URLs (strings, bounded) and the Authorization it sends the API", () => {
    expect(
      warmRequestOf({ type: WARM_MESSAGE_TYPE, urls: [`${API}/tasks/today`, 7], authorization: 'Bearer t' }),
    ).toEqual({ urls: [`${API}/tasks/today`], authorization: 'Bearer t' });
    expect(warmRequestOf({ type: WARM_MESSAGE_TYPE, urls: [], authorization: '' })).toEqual({
      urls: [],
      authorization: null,
    });
    const many = Array.from({ length: WARM_URL_LIMIT + 5 }, (_, index) => `${SHELL}/${index}`);
    expect(warmRequestOf({ type: WARM_MESSAGE_TYPE, urls: many })?.urls).toHaveLength(WARM_URL_LIMIT);
    expect(warmRequestOf({ type: 'needs-connection' })).toBeNull();
    expect(warmRequestOf({ type: WARM_MESSAGE_TYPE, urls: 'x' })).toBeNull();
    expect(warmRequestOf(null)).toBeNull();
  });
});
