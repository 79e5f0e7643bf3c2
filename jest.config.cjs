// One jest run over every front-end package the registry lists; the server has its own runner (node:test) under server/.
const path = require('node:path');
const { frontEndPackages, repoRoot } = require('./shell/packages/devkit/apps.cjs');
const { createJestConfig } = require('./shell/packages/devkit/jest/preset.cjs');

module.exports = {
  projects: frontEndPackages.map((dir) => createJestConfig(path.join(repoRoot, dir))),
};
