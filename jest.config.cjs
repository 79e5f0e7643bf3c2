// One jest run over every front-end package the registry lists; the server has its own runner (node:test) under server/.
const path = require('node:path');
const { frontEndPackages, repoRoot } = require('@time-wallet/devkit/apps');
const { createJestConfig } = require('@time-wallet/devkit/jest-preset');

module.exports = {
  projects: frontEndPackages.map((dir) => createJestConfig(path.join(repoRoot, dir))),
};
