/** @jest-environment jsdom */
import fs from 'node:fs';
import path from 'node:path';

// The build-time half is CommonJS for webpack.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { withConstants } = require('./pwa-assets.cjs') as { withConstants: (script: string) => string };

const SCRIPT = withConstants(
  fs.readFileSync(path.join(__dirname, '../../public/register-service-worker.js'), 'utf8'),
);
/** What the script promises: registration waits for this long without a resource finishing, or this long in all. */
const SETTLE_MS = 2000;
const LATEST_MS = 20_000;

interface Browser {
  register: jest.Mock;
  /** A resource (a chunk, an API read) finishing, as the browser reports it to PerformanceObservers. */
  resourceFinished: () => void;
  /** Runs the idle callbacks the script asked for, as the browser does when it has nothing else to do. */
  becomeIdle: () => void;
  idleRequests: () => number;
}

/** Runs the registration script in a page whose browser has a service worker container and, as asked, the APIs. */
function pageWith({ observer = true, idle = true } = {}): Browser {
  const register = jest.fn(() => Promise.resolve({}));
  Object.defineProperty(window.navigator, 'serviceWorker', {
    configurable: true,
    value: { controller: null, register, addEventListener: jest.fn() },
  });
  const observers: { callback: () => void; observing: boolean }[] = [];
  Object.defineProperty(window, 'PerformanceObserver', {
    configurable: true,
    value: observer
      ? class {
          private readonly entry: { callback: () => void; observing: boolean };
          constructor(callback: () => void) {
            this.entry = { callback, observing: false };
            observers.push(this.entry);
          }
          observe() {
            this.entry.observing = true;
          }
          disconnect() {
            this.entry.observing = false;
          }
        }
      : undefined,
  });
  const idleCallbacks: { callback: () => void; timeout?: number }[] = [];
  Object.defineProperty(window, 'requestIdleCallback', {
    configurable: true,
    value: idle
      ? (callback: () => void, options?: { timeout?: number }) => {
          idleCallbacks.push({ callback, timeout: options?.timeout });
          return idleCallbacks.length;
        }
      : undefined,
  });
  const addListener = jest.spyOn(window, 'addEventListener');
  new Function(SCRIPT)();
  for (const [type, listener] of addListener.mock.calls) added.push([type, listener]);
  addListener.mockRestore();
  return {
    register,
    resourceFinished: () => observers.filter((entry) => entry.observing).forEach((entry) => entry.callback()),
    becomeIdle: () => idleCallbacks.splice(0).forEach(({ callback }) => callback()),
    idleRequests: () => idleCallbacks.length,
  };
}

const load = () => window.dispatchEvent(new Event('load'));
/** The listeners each run of the script added, removed after each test so that no test's load reaches another's. */
const added: [string, EventListenerOrEventListenerObject | null][] = [];

describe('the service worker is registered once the page has settled', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    for (const [type, listener] of added.splice(0)) if (listener) window.removeEventListener(type, listener);
    jest.useRealTimers();
  });

  it('waits for load, then for no resource finishing for two seconds, then for an idle moment', () => {
    const browser = pageWith();
    jest.advanceTimersByTime(LATEST_MS * 2);
    expect(browser.register).not.toHaveBeenCalled();

    load();
    jest.advanceTimersByTime(SETTLE_MS - 500);
    // The page's reads and lazy chunks are still arriving: each one starts the quiet spell again.
    browser.resourceFinished();
    jest.advanceTimersByTime(SETTLE_MS - 1);
    expect(browser.idleRequests()).toBe(0);
    jest.advanceTimersByTime(1);
    expect(browser.idleRequests()).toBe(1);
    expect(browser.register).not.toHaveBeenCalled();

    browser.becomeIdle();
    expect(browser.register).toHaveBeenCalledTimes(1);
    expect(browser.register).toHaveBeenCalledWith('/sw.js');
    // Once only: later resources and timers register nothing more.
    browser.resourceFinished();
    jest.advanceTimersByTime(LATEST_MS * 2);
    browser.becomeIdle();
    expect(browser.register).toHaveBeenCalledTimes(1);
  });

  it('registers at the latest twenty seconds after load on a page that never goes quiet', () => {
    const browser = pageWith();
    load();
    for (let elapsed = 0; elapsed < LATEST_MS - 1000; elapsed += 1000) {
      jest.advanceTimersByTime(1000);
      browser.resourceFinished();
    }
    expect(browser.idleRequests()).toBe(0);
    jest.advanceTimersByTime(1000);
    expect(browser.idleRequests()).toBe(1);
    browser.becomeIdle();
    expect(browser.register).toHaveBeenCalledTimes(1);
  });

  it('registers two seconds after load where the browser has neither observers nor idle callbacks', () => {
    const browser = pageWith({ observer: false, idle: false });
    load();
    jest.advanceTimersByTime(SETTLE_MS - 1);
    expect(browser.register).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(browser.register).toHaveBeenCalledTimes(1);
  });
});
