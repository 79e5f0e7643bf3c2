const fs = require('node:fs');
const path = require('node:path');
const { repoRoot } = require('../apps.cjs');

// Every module that must exist once per page: one React, one toaster, and our own api package, which is the one store,
// API cache and router for every remote. Redux, RTK and react-router are not shared themselves: a shared module ships
// whole (any remote might import any export), so remotes reach them only through @time-wallet/api, and the shell's
// bundle keeps only what is used. Subpaths are listed explicitly, or each app bundles its own copy of them.
const SINGLETONS = [
  'react',
  'react/jsx-runtime',
  'react/jsx-dev-runtime',
  'react-dom',
  'react-dom/client',
  'react-hot-toast',
  '@time-wallet/api',
  // The router reaches remotes only through this module (see its comment), so react-router itself is not shared.
  '@time-wallet/api/router',
  '@time-wallet/shared-ui',
];

function packageNameOf(request) {
  const parts = request.split('/');
  return request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function installedVersion(packageName) {
  // Read from node_modules directly: some packages (ours included) do not export their package.json.
  const manifest = JSON.parse(
    fs.readFileSync(path.join(repoRoot, 'node_modules', packageName, 'package.json'), 'utf8'),
  );
  return manifest.version;
}

/**
 * The share scope. The shell provides every singleton; a federated remote ships none of them
 * (`import: false`) and always uses the shell's instance, so a remote can never bring a second React or store.
 * A remote running standalone for its own team is the host and provides them itself.
 *
 * No build asks the federation runtime for a version range. The range a remote accepts is still in its manifest: the
 * manifest plugin writes ^ the installed version for a shared module given none, and the deploy gate
 * (bin/gate.mjs) refuses a remote whose range the live shell's version misses, before it goes live. At run time a
 * range only made the runtime warn, and checking it cost the page: its semver parser rebuilds its regular expressions
 * on every call, once per singleton, in the task that starts each remote (about 13 ms of the host's start-up task at
 * full CPU speed on /app/wallet, up to 10 ms of a remote's first load on /app/today: e2e/bench/task-profile.mjs
 * --innermost).
 */
function sharedModules({ providesSingletons }) {
  return Object.fromEntries(
    SINGLETONS.map((request) => [
      request,
      {
        singleton: true,
        requiredVersion: false,
        ...(providesSingletons ? { version: installedVersion(packageNameOf(request)) } : { import: false }),
      },
    ]),
  );
}

module.exports = { SINGLETONS, installedVersion, packageNameOf, sharedModules };
