const path = require('node:path');

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
    },
    setupFilesAfterEnv: [require.resolve('./setup.cjs')],
    testMatch: ['<rootDir>/src/**/*.test.{ts,tsx}'],
    ...overrides,
  };
}

module.exports = { createJestConfig };
