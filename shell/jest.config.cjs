const { createJestConfig } = require('./packages/devkit/jest/preset.cjs');

module.exports = createJestConfig(__dirname);
