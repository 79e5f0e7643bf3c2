const path = require('node:path');
const { createJestConfig } = require('../shell/packages/devkit/jest/preset.cjs');

const base = createJestConfig(__dirname);
const preact = path.dirname(require.resolve('preact/package.json'));

module.exports = {
  ...base,
  moduleNameMapper: {
    ...base.moduleNameMapper,
    // FullCalendar's CommonJS build requires preact; jsdom's "browser" condition would pick preact's ES modules.
    '^preact$': path.join(preact, 'dist/preact.js'),
    '^preact/(compat|hooks|jsx-runtime)$': path.join(preact, '$1/dist/$1.js'),
  },
};
