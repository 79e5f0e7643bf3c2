/** Talks to the real API directly, to set up what a test needs without clicking through it. */
export function apiClient(apiBaseUrl) {
  /** `timeZone` is sent as X-Time-Zone, so local days are the browser's (see support/days.mjs). */
  async function call(method, url, { token, body, timeZone } = {}) {
    const response = await fetch(`${apiBaseUrl}${url}`, {
      method,
      headers: {
        ...(body ? { 'Content-Type': 'application/json' } : {}),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(timeZone ? { 'X-Time-Zone': timeZone } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    const data = text ? JSON.parse(text) : null;
    if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
    return data;
  }

  let counter = 0;
  return {
    call,
    /** Registers a fresh user and signs them in; returns {token, user, username, password}. */
    async signUp(prefix = 'walleter') {
      counter += 1;
      const suffix = `${Date.now().toString(36)}${counter}`.slice(-7);
      const username = `${prefix}${suffix}`.slice(0, 15);
      const password = 'Secret#123';
      await call('POST', '/auth/register/user', {
        body: {
          username,
          email: `${username}@example.com`,
          password,
          name: 'Test Person',
          profilePicture: '',
        },
      });
      const { token, user } = await call('POST', '/auth/login', { body: { username, password } });
      return { token, user, username, password };
    },
  };
}

/** Puts a session into the browser's storage the way the product stores it after a login. */
export async function storeSession(page, shellUrl, { token, user }) {
  await page.goto(`${shellUrl}/robots.txt`);
  await page.evaluate(
    ([storedToken, storedUser]) => {
      localStorage.setItem('token', storedToken);
      localStorage.setItem('USER', JSON.stringify(storedUser));
    },
    [token, user],
  );
}
