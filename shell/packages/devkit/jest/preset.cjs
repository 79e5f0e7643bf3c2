const path = require('node:path');

// FullCalendar's CommonJS build requires preact; jsdom's "browser" condition would pick preact's ES modules.
const preact = path.dirname(require.resolve('preact/package.json'));

/** Jest settings shared by every front-end package: swc for TS/TSX, jsdom with Node's fetch, CSS modules as class names. */
function createJestConfig(packageDir, overrides = {}) {
  return {
    rootDir: packageDir,
    displayName: path.basename(packageDir),
    testEnvironment: require.resolve('./environment.cjs'),
    testEnvironmentOptions: { url: 'http://localhost:3000/' },
    transform: {
      '^.+\\.(t|j)sx?$': [
        require.resolve('@swc/jest'),
        {
          jsc: {
            parser: { syntax: 'typescript', tsx: true },
            transform: { react: { runtime: 'automatic' } },
            target: 'es2022',
          },
          module: { type: 'commonjs' },
        },
      ],
    },
    moduleNameMapper: {
      '\\.module\\.css$': require.resolve('identity-obj-proxy'),
      '\\.css$': require.resolve('./style-stub.cjs'),
      '\\.(svg|png)$': require.resolve('./file-stub.cjs'),
      '^preact$': path.join(preact, 'dist/preact.js'),
      '^preact/(compat|hooks|jsx-runtime)$': path.join(preact, '$1/dist/$1.js'),
    },
    // Before React loads: which components draw on each commit (recordRenders in @time-wallet/api/testing).
    setupFiles: [require.resolve('./react-commits.cjs')],
    setupFilesAfterEnv: [require.resolve('./setup.cjs')],
    testMatch: ['<rootDir>/src/**/*.test.{ts,tsx}'],
    ...overrides,
  };
}

module.exports = { createJestConfig };
