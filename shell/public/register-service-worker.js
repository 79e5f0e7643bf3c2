// Registers the service worker (src/sw) once the page has loaded, so its download and precache never compete with the
// first paint. Inlined into every document that runs the app, like theme-init.js (the static landing page has none:
// shell/src/sw/pwa-assets.cjs). No worker: the app works as a plain web page.
(function () {
  if (!('serviceWorker' in navigator)) return;
  window.addEventListener('load', function () {
    navigator.serviceWorker.register('/sw.js').catch(function (error) {
      console.warn('The service worker could not be registered', error);
    });
  });
})();
