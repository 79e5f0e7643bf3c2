// The one registry of deployable apps and their pages lives in registry.json; this module derives what the build,
// start and test tooling needs from it (ports, each remote's exposes, the front-end packages), so nothing is listed twice.
const path = require('node:path');
const registry = require('./registry.json');

const repoRoot = path.resolve(__dirname, '../../..');

/** A page's module, by convention: the expose in kebab case under the remote's src/app/pages (TagsPage -> tags-page). */
function pageModuleOf(page) {
  const file = page.expose.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  return `./src/app/pages/${file}.tsx`;
}

const remotes = registry.remotes.map((remote) => ({
  ...remote,
  exposes: Object.fromEntries(remote.pages.map((page) => [`./${page.expose}`, pageModuleOf(page)])),
}));

const { shell, api, firstFrames } = registry;

/** Every front-end package, bottom layer first: the libraries, the shell and each remote. */
const frontEndPackages = [...registry.libraries, shell.dir, ...remotes.map((remote) => remote.dir)];

function portOf(app, env = process.env) {
  return Number(env[app.portEnv] ?? app.defaultPort);
}

module.exports = { repoRoot, remotes, shell, api, firstFrames, portOf, pageModuleOf, frontEndPackages };
