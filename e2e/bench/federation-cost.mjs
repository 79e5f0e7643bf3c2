import { startStack } from '../support/stack.mjs';
import { launchBrowser } from '../support/browser.mjs';
import { apiClient, storeSession } from '../support/api-client.mjs';
import { median } from './lighthouse.mjs';

// A network slower than loopback, so that round trips cost what they cost for a user (40 ms, 10 Mbit/s).
const NETWORK = { offline: false, latency: 40, downloadThroughput: 1_250_000, uploadThroughput: 1_250_000 };

async function seededAccount(apiBaseUrl) {
  const api = apiClient(apiBaseUrl);
  const account = await api.signUp('bench');
  for (let hour = 8; hour < 14; hour += 1) {
    await api.call('POST', '/tasks', {
      token: account.token,
      body: {
        title: `Task ${hour}`,
        startHHMM: `${String(hour).padStart(2, '0')}:00`,
        endHHMM: `${String(hour).padStart(2, '0')}:45`,
      },
    });
  }
  return account;
}

/**
 * Opens the wallet once in a fresh profile and reports its LCP, when the wallet's figures were in, and the longest
 * chain of sequential requests finished by then.
 */
async function measureWallet(stack, account) {
  const browser = await launchBrowser();
  try {
    await storeSession(browser.page, stack.shellUrl, account);
    const cdp = await browser.context.newCDPSession(browser.page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', NETWORK);
    const requests = new Map();
    // CDP's timestamps are monotonic seconds; the wall time of the first request anchors them to the page's clock.
    let wallOffset;
    cdp.on('Network.requestWillBeSent', (event) => {
      wallOffset ??= event.wallTime - event.timestamp;
      if (event.type === 'Preflight' || event.request.method === 'OPTIONS') return;
      requests.set(event.requestId, { url: event.request.url, started: event.timestamp + wallOffset });
    });
    cdp.on('Network.loadingFinished', (event) => {
      const request = requests.get(event.requestId);
      if (request) request.finished = event.timestamp + wallOffset;
    });
    const preflights = [];
    cdp.on('Network.requestWillBeSent', (event) => {
      if (event.request.method === 'OPTIONS') preflights.push(event.request.url);
    });
    await browser.page.goto(`${stack.shellUrl}/app/wallet`);
    // When the wallet's figures are in (its cards stop being busy), by the page's clock; 60 s at most.
    const readyAt = await (
      await browser.page.waitForFunction(
        () =>
          document.querySelector('[aria-labelledby="your-wallet-title"] [aria-busy="false"]') &&
          performance.now(),
        undefined,
        { timeout: 60_000, polling: 'raf' },
      )
    ).jsonValue();
    const lcp = await browser.page.evaluate(
      () =>
        new Promise((resolve) => {
          new PerformanceObserver((list) => {
            const entries = list.getEntries();
            resolve(entries[entries.length - 1].startTime);
          }).observe({ type: 'largest-contentful-paint', buffered: true });
          setTimeout(() => resolve(Number.NaN), 10_000);
        }),
    );
    const navigationStart = await browser.page.evaluate(() => performance.timeOrigin / 1000);
    // The longest chain of requests each of which started only after the one before had finished: the round trips
    // the page waited through, one after another, before its figures showed (CORS preflights counted apart).
    const readyTimestamp = navigationStart + readyAt / 1000;
    const beforeReady = [...requests.values()]
      .filter((request) => request.started <= readyTimestamp && request.finished !== undefined)
      .sort((a, b) => a.started - b.started);
    for (const request of beforeReady) {
      const earlier = beforeReady.filter((other) => other.finished <= request.started);
      request.chain = 1 + Math.max(0, ...earlier.map((other) => other.chain));
    }
    const chain = Math.max(...beforeReady.map((request) => request.chain));
    return {
      lcpMs: lcp,
      readyMs: readyAt,
      requests: beforeReady.length,
      chain,
      preflights: preflights.length,
    };
  } finally {
    await browser.close();
  }
}

/**
 * Federated shell vs the same pages compiled into the shell (`staticShellDir`), in alternating rounds of the same run.
 */
export async function federationCost({ staticShellDir, rounds = 3, runsPerRound = 2 } = {}) {
  const samples = { federated: [], static: [] };
  for (let round = 0; round < rounds; round += 1) {
    for (const variant of ['federated', 'static']) {
      const stack = await startStack(variant === 'static' ? { distDirs: { shell: staticShellDir } } : {});
      try {
        const account = await seededAccount(stack.apiBaseUrl);
        // One unmeasured visit warms the servers' compression caches, as a deployed CDN would be.
        await measureWallet(stack, account);
        for (let run = 0; run < runsPerRound; run += 1)
          samples[variant].push(await measureWallet(stack, account));
      } finally {
        await stack.stop();
      }
    }
  }
  const summary = (list) => ({
    runs: list.length,
    lcpMs: median(list.map((sample) => sample.lcpMs)),
    readyMs: median(list.map((sample) => sample.readyMs)),
    chain: median(list.map((sample) => sample.chain)),
    requests: median(list.map((sample) => sample.requests)),
    preflights: median(list.map((sample) => sample.preflights)),
  });
  const federated = summary(samples.federated);
  const staticBuild = summary(samples.static);
  return {
    network: NETWORK,
    federated,
    static: staticBuild,
    lcpRatio: federated.lcpMs / staticBuild.lcpMs,
    readyRatio: federated.readyMs / staticBuild.readyMs,
  };
}
