const { createJestConfig } = require('../shell/packages/devkit/jest/preset.cjs');

module.exports = createJestConfig(__dirname);
