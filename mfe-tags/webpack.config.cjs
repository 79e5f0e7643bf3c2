const { createConfig } = require('@time-wallet/devkit/webpack');

module.exports = (env, argv) => createConfig(__dirname, env, argv);
