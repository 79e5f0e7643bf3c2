// Runs before the first paint so a dark-theme user never sees a flash of the light theme. It also marks a visit
// without a stored session: the prerendered signed-in frame stays hidden for it (page-skeleton.module.css).
(function () {
  var preference = 'system';
  var session = false;
  try {
    var stored = window.localStorage.getItem('theme');
    if (stored === 'light' || stored === 'dark' || stored === 'system') preference = stored;
    session = Boolean(window.localStorage.getItem('token'));
  } catch {
    // Storage can be blocked (private mode, policies): follow the system, and no session.
  }
  if (!session) document.documentElement.setAttribute('data-no-session', '');
  var path = window.location.pathname;
  var forcedLight = path === '/auth/login' || path === '/auth/register';
  document.documentElement.setAttribute('data-theme', forcedLight ? 'light' : preference);
})();
