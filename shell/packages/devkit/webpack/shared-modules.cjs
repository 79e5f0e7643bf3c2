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
 * A remote asks for a range: the deploy gate reads it from the remote's manifest (bin/gate.mjs), and the federation
 * runtime warns when the shell's version is outside it. The host asks for none: remotes provide nothing, so the only
 * version in the scope is the host's own, which a range of its own could never miss. Checking it anyway was the
 * federation runtime parsing every singleton's range in the host's start-up task (about 13 ms at full CPU speed on
 * /app/wallet, e2e/bench/task-profile.mjs --innermost).
 */
function sharedModules({ providesSingletons }) {
  return Object.fromEntries(
    SINGLETONS.map((request) => {
      const version = installedVersion(packageNameOf(request));
      return [
        request,
        {
          singleton: true,
          requiredVersion: providesSingletons || version === '0.0.0' ? false : `^${version}`,
          ...(providesSingletons ? { version } : { import: false }),
        },
      ];
    }),
  );
}

module.exports = { SINGLETONS, sharedModules };
