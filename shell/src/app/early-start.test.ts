import { startEarly } from './early-start';

const CONFIG = {
  apiBaseUrl: 'http://api.example/api',
  remotes: { mfe_wallet: 'http://wallet.example/mf-manifest.json' },
};

function answer(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('the early start', () => {
  let requests: Request[];

  beforeEach(() => {
    requests = [];
    window.localStorage.clear();
    window.history.replaceState(null, '', '/app/wallet');
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const request = new Request(
        input instanceof Request ? input : new URL(String(input), window.location.href),
        init,
      );
      requests.push(request);
      if (request.url.endsWith('/config.json')) return answer(CONFIG);
      if (request.url === 'http://api.example/api/auth/validate') return answer({ valid: true });
      return answer({ message: 'unexpected' }, 404);
    });
  });
  afterEach(() => jest.restoreAllMocks());

  it('reads the config and starts the session check as the api slice would send it', async () => {
    window.localStorage.setItem('token', 'token-abc');
    const early = startEarly();
    expect(await early.config).toEqual(CONFIG);
    const check = await early.sessionCheck;
    expect(check).toMatchObject({
      url: 'http://api.example/api/auth/validate',
      authorization: 'Bearer token-abc',
    });
    expect(await (await check!.response).json()).toEqual({ valid: true });
    const validate = requests.find((request) => request.url.endsWith('/auth/validate'))!;
    expect(validate.headers.get('Authorization')).toBe('Bearer token-abc');
    expect(validate.headers.get('X-Time-Zone')).toBeTruthy();
    expect(validate.credentials).toBe('include');
  });

  it('sends no session check without a stored token', async () => {
    const early = startEarly();
    expect(await early.sessionCheck).toBeNull();
    expect(requests.map((request) => new URL(request.url).pathname)).toEqual(['/config.json']);
  });

  it('still hands over the config and the check when the remotes cannot be registered early', async () => {
    // In jsdom the federation runtime has no host instance, so registering throws: the head start is lost, not the app.
    window.localStorage.setItem('token', 'token-abc');
    const early = startEarly();
    await expect(early.config).resolves.toEqual(CONFIG);
    await expect(early.sessionCheck).resolves.toMatchObject({ authorization: 'Bearer token-abc' });
    expect(console.error).toHaveBeenCalledWith('Could not register the remotes early', expect.anything());
  });

  it('rejects the config when it cannot be read, and the session check resolves to nothing', async () => {
    jest.spyOn(globalThis, 'fetch').mockResolvedValue(answer({ message: 'down' }, 503));
    const early = startEarly();
    await expect(early.config).rejects.toThrow('GET /config.json answered 503');
    await expect(early.sessionCheck).resolves.toBeNull();
  });
});
