// Registers the service worker (src/sw) once the page has settled, so its download, its precache of the shell's build
// and its copies of what the page loaded never compete with the page's own start: after load, once no resource (a
// chunk, an API read) has finished for SETTLE_MS, at the browser's next idle moment; at the latest LATEST_MS after
// load.
// Registered at load, the worker's install ran beside the page's reads and lazy chunks and, on a 2-core machine, made
// the first visit's main thread wait for a CPU (Lighthouse's mobile TBT on the wallet 2.5 s against 0.9 s without it).
// A worker is for the next visit and for going offline later, so the first visit loses nothing by its waiting a few
// seconds. Inlined into every document that runs the app, like theme-init.js (the static landing page has none:
// shell/src/sw/pwa-assets.cjs). No worker: the app works as a plain web page.
//
// Once the worker controls the page (when the page has settled, or when it first takes over), the page tells it what
// it has loaded, so the worker can keep what never passed through it: what loaded before it took over, and what
// Chromium's memory cache answered. With the API's reads goes the Authorization the page sends them with (the worker
// fetches them again).
// The "__NAME__" strings are the build's (pwa-assets.cjs, from the TypeScript that defines them).
(function () {
  if (!('serviceWorker' in navigator)) return;
  var worker = navigator.serviceWorker;
  var TOKEN_KEY = '__TOKEN_KEY__';
  var MESSAGE = '__WARM_MESSAGE_TYPE__';
  var LIMIT = Number('__WARM_URL_LIMIT__');
  // Bounded: a page tells the worker of at most this many URLs in all.
  var told = {};
  var left = LIMIT * 10;
  var timer = 0;
  // What the observer saw: the browser's own list keeps only the first 250 a page loads.
  var seen = [];
  var SETTLE_MS = 2000;
  var LATEST_MS = 20000;

  function tell() {
    timer = 0;
    var controller = worker.controller;
    if (!controller) return;
    var urls = [];
    var names = [location.href].concat(
      performance.getEntriesByType('resource').map(function (entry) {
        return entry.name;
      }),
      seen.splice(0),
    );
    for (var index = 0; index < names.length && urls.length < LIMIT && left > 0; index += 1) {
      if (told[names[index]]) continue;
      told[names[index]] = 1;
      left -= 1;
      urls.push(names[index]);
    }
    if (left > 0 && index < names.length) {
      // More than a message's worth: the rest a second later.
      seen = names.slice(index).concat(seen).slice(0, LIMIT);
      later();
    }
    if (urls.length === 0) return;
    var token = null;
    try {
      token = localStorage.getItem(TOKEN_KEY);
    } catch {
      // No storage: no API reads to warm.
    }
    controller.postMessage({ type: MESSAGE, urls: urls, authorization: token ? 'Bearer ' + token : null });
  }

  function later() {
    if (!timer) timer = setTimeout(tell, 1000);
  }

  function observed(list) {
    list.getEntries().forEach(function (entry) {
      if (!told[entry.name] && seen.length < LIMIT) seen.push(entry.name);
    });
    later();
  }

  function follow() {
    later();
    // What the page loads from now on, a later page of the app included.
    if (window.PerformanceObserver) {
      try {
        new PerformanceObserver(observed).observe({ type: 'resource' });
      } catch {
        // An old browser: what was loaded by now is told all the same.
      }
    }
  }

  // Calls done once, when no resource has finished for SETTLE_MS (or LATEST_MS have passed) and the browser is idle.
  function whenSettled(done) {
    var called = false;
    var quiet = 0;
    var observer = null;
    var latest = setTimeout(settle, LATEST_MS);
    function settle() {
      if (called) return;
      called = true;
      clearTimeout(quiet);
      clearTimeout(latest);
      if (observer) observer.disconnect();
      if (window.requestIdleCallback) window.requestIdleCallback(done, { timeout: SETTLE_MS });
      else done();
    }
    function restart() {
      clearTimeout(quiet);
      quiet = setTimeout(settle, SETTLE_MS);
    }
    if (window.PerformanceObserver) {
      try {
        observer = new PerformanceObserver(restart);
        observer.observe({ type: 'resource' });
      } catch {
        observer = null;
      }
    }
    restart();
  }

  window.addEventListener('load', function () {
    whenSettled(function () {
      if (worker.controller) follow();
      else worker.addEventListener('controllerchange', follow, { once: true });
      worker.register('/sw.js').catch(function (error) {
        console.warn('The service worker could not be registered', error);
      });
    });
  });
})();
