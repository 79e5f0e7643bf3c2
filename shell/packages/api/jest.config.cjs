const { createJestConfig } = require('../devkit/jest/preset.cjs');

module.exports = createJestConfig(__dirname);
