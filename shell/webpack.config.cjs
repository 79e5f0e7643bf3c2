const path = require('node:path');
const { InjectManifest } = require('workbox-webpack-plugin');
const { createConfig } = require('@time-wallet/devkit/webpack');
const { PwaAssetsPlugin } = require('./src/sw/pwa-assets.cjs');

// Files of the build a page never needs offline: source maps, licence notices and the federation plugin's statistics.
const NOT_PRECACHED = [/\.map$/, /\.LICENSE\.txt$/, /^mf-stats\.json$/];

module.exports = (env = {}, argv = {}) => {
  const config = createConfig(__dirname, env, argv);
  // The installable app: its manifest and icons everywhere, its service worker in production builds only (a
  // development server's files change with every save). The benchmark's static build has neither.
  if (env.staticRemotes) return config;
  config.plugins.push(new PwaAssetsPlugin());
  if (config.mode === 'production') {
    config.plugins.push(
      new InjectManifest({
        swSrc: path.join(__dirname, 'src/sw/service-worker.ts'),
        swDest: 'sw.js',
        exclude: NOT_PRECACHED,
        // The largest start-up chunk (the framework) is about 190 KB before gzip; anything the build emits is kept.
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
      }),
    );
  }
  return config;
};
