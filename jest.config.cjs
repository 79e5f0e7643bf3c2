// One jest run over every front-end package; the server has its own runner (node:test) under server/.
module.exports = {
  projects: [
    '<rootDir>/shared-ui',
    '<rootDir>/shell/packages/api',
    '<rootDir>/shell',
    '<rootDir>/mfe-auth',
    '<rootDir>/mfe-wallet',
    '<rootDir>/mfe-calendar',
    '<rootDir>/mfe-analytics',
    '<rootDir>/mfe-tags',
  ],
};
