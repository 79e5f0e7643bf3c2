// Runs before the first paint so a dark-theme user never sees a flash of the light theme.
(function () {
  var preference = 'system';
  try {
    var stored = window.localStorage.getItem('theme');
    if (stored === 'light' || stored === 'dark' || stored === 'system') preference = stored;
  } catch {
    // Storage can be blocked (private mode, policies): follow the system then.
  }
  var path = window.location.pathname;
  var forcedLight = path === '/auth/login' || path === '/auth/register';
  document.documentElement.setAttribute('data-theme', forcedLight ? 'light' : preference);
})();
