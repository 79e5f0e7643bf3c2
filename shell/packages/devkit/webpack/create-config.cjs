const fs = require('node:fs');
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const MinimizerPlugin = require('minimizer-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { remotes, repoRoot, shell, portOf } = require('../apps.cjs');
const { sharedModules } = require('./shared-modules.cjs');
const { CopyPublicPlugin } = require('./copy-public-plugin.cjs');
const { devServerFor } = require('./dev-server.cjs');
const { writeStaticFederationModule } = require('./static-pages.cjs');
const { writeStandaloneEntry } = require('./standalone-entry.cjs');
const { PrerenderPlugin } = require('./prerender.cjs');
const { StartupPreloadPlugin } = require('./startup-preload.cjs');
const { InlineTemplateScriptsPlugin } = require('./inline-template-scripts.cjs');
const { startupSplitChunks } = require('./startup-chunks.cjs');

function appFromDir(appDir) {
  const dir = path.basename(appDir);
  if (dir === shell.dir) return { ...shell, kind: 'host' };
  const remote = remotes.find((candidate) => candidate.dir === dir);
  if (!remote) throw new Error(`${dir} is not a registered app (see devkit/apps.cjs)`);
  return { ...remote, kind: 'remote' };
}

const RUNTIME_PACKAGES = [
  '@module-federation/runtime-core',
  '@module-federation/sdk',
  '@module-federation/error-codes',
];

function federationRuntimeAliases() {
  return Object.fromEntries(
    RUNTIME_PACKAGES.map((name) => {
      const manifestPath = path.join(repoRoot, 'node_modules', name, 'package.json');
      const esmEntry = require(manifestPath).exports['.'].import.default;
      return [`${name}$`, path.join(path.dirname(manifestPath), esmEntry)];
    }),
  );
}

// react-router's package exports point every condition at its development build (react-router issues #12532 and
// #14753); its production build sits beside it, unexported, without the dev-only checks and warnings (0.5 KB gzip
// less on the first visit). A production build resolves each entry we use (react-router-dom re-exports both) to that
// build. Jest and the dev server keep the development build and its warnings.
const REACT_ROUTER_ENTRIES = { 'react-router': 'index.mjs', 'react-router/dom': 'dom-export.mjs' };

function reactRouterProductionAliases() {
  const distDir = path.join(repoRoot, 'node_modules', 'react-router', 'dist', 'production');
  return Object.fromEntries(
    Object.entries(REACT_ROUTER_ENTRIES).map(([request, file]) => {
      const target = path.join(distDir, file);
      // Fail the build rather than silently ship the development build if a react-router release moves the file.
      if (!fs.existsSync(target)) throw new Error(`react-router's production build is not at ${target}`);
      return [`${request}$`, target];
    }),
  );
}

function scriptRules(isProduction) {
  return {
    test: /\.[jt]sx?$/,
    exclude: /node_modules/,
    use: {
      loader: require.resolve('swc-loader'),
      options: {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic', development: !isProduction } },
          target: 'es2020',
        },
      },
    },
  };
}

// `styleLoader`: the prerender bundle collects stylesheets instead of injecting them (prerender-css.cjs).
function styleRules(app, isProduction, styleLoader = require.resolve('style-loader')) {
  const prefix = app.federationName.replace(/^mfe_/, '');
  return [
    {
      test: /\.module\.css$/,
      use: [
        styleLoader,
        {
          loader: require.resolve('css-loader'),
          options: {
            // A CSS source map is built into the JS that injects the stylesheet: in production it would ship every
            // stylesheet to every visitor twice (its text again as the map's sourcesContent).
            sourceMap: !isProduction,
            modules: {
              // The app prefix keeps one remote's class names from ever matching another's.
              localIdentName: isProduction ? `${prefix}-[hash:base64:6]` : `${prefix}__[name]__[local]`,
              namedExport: false,
              exportLocalsConvention: 'as-is',
            },
          },
        },
      ],
    },
    {
      test: /\.css$/,
      exclude: /\.module\.css$/,
      use: [styleLoader, { loader: require.resolve('css-loader'), options: { sourceMap: !isProduction } }],
    },
  ];
}

/**
 * The one webpack + Module Federation config for the shell and every remote.
 * `env.standalone` builds a remote as its own host (for its team's dev server); `outputPath` redirects a build
 * (used to publish a remote's new version next to the old one); `env.staticRemotes` builds the benchmark's
 * non-federated shell.
 */
function createConfig(appDir, env = {}, argv = {}) {
  const app = appFromDir(appDir);
  const isProduction = (argv.mode ?? process.env.NODE_ENV) === 'production';
  const standalone = app.kind === 'remote' && Boolean(env.standalone);
  const providesSingletons = app.kind === 'host' || standalone;
  // Benchmark only: the shell with every remote page compiled in (see static-pages.cjs).
  const staticRemotes = app.kind === 'host' && Boolean(env.staticRemotes);
  const publicDir = path.join(appDir, 'public');
  const outputPath = env.outputPath ? path.resolve(env.outputPath) : path.join(appDir, 'dist');

  const prerenderPlugin = (kind) =>
    new PrerenderPlugin({
      appDir,
      resolve,
      kind,
      firstFramePages: (app.pages ?? []).filter((page) => page.firstFrame).map((page) => page.name),
      rules: [
        scriptRules(true),
        ...styleRules(app, true, require.resolve('./prerender-css.cjs')),
        { test: /\.(png|svg|jpg|webp|ico)$/, type: 'asset/resource', generator: { emit: false } },
      ],
    });

  const federation = {
    name: app.federationName,
    shared: sharedModules({ providesSingletons }),
    shareStrategy: 'loaded-first',
    dts: false,
  };
  // The federation runtime ships once, with the host; a federated remote's entry reuses it instead of a copy.
  // `target: 'web'` drops the runtime's Node code paths (1.7 KB gzip off the shell's entry); a remote loads no other
  // remote, so its entry also leaves out the code that would (0.7 KB off each remote's entry with both). A standalone
  // remote (its team's dev host) keeps the defaults.
  if (app.kind === 'remote') {
    Object.assign(federation, { filename: 'remoteEntry.js', exposes: app.exposes, manifest: true });
    if (!standalone) {
      federation.experiments = {
        externalRuntime: true,
        optimization: { target: 'web', disableRemote: true },
      };
    }
  } else {
    Object.assign(federation, {
      remotes: {},
      experiments: { provideExternalRuntime: true, optimization: { target: 'web' } },
    });
  }

  const hasHtml = app.kind === 'host' || standalone;
  // Production stylesheets are files beside the chunks, loaded with them by the app's own runtime as <link>s (the
  // shell's style-src names every remote origin, serve/static-server.mjs), instead of text inside the JS that
  // style-loader injects as it runs: fewer bytes of script to parse and run on a phone, and CSS the browser parses off
  // the script's path (docs/decisions/0005, 0009). The shell's are its start-up chunks' stylesheet, preloaded with them
  // (startup-preload.cjs) and loaded behind the async boundary: its first frame's styles are inlined in the prerendered
  // HTML (prerender.cjs), so no stylesheet holds the first paint. They are minified (optimization.minimizer). Development
  // and standalone runs keep style-loader.
  const extractsCss = !standalone && isProduction;
  const resolve = {
    extensions: ['.tsx', '.ts', '.jsx', '.js'],
    // The generated standalone entry lives outside the repository and resolves packages from its node_modules.
    modules: ['node_modules', path.join(repoRoot, 'node_modules')],
    // The runtime's packages ship CommonJS and ES builds; the plugin that lends the host's runtime to remotes
    // requires one while the runtime imports the other, which would bundle the runtime twice.
    alias: { ...federationRuntimeAliases(), ...(isProduction ? reactRouterProductionAliases() : {}) },
  };
  const entry =
    app.kind === 'host' ? { main: './src/index.ts' } : standalone ? { main: writeStandaloneEntry(app) } : {};

  return {
    context: appDir,
    mode: isProduction ? 'production' : 'development',
    // Production maps are written for tools that read them from disk, but no file names its map (the static server
    // never sends one): a visitor's browser gets no readable sources.
    devtool: isProduction ? 'hidden-source-map' : 'eval-cheap-module-source-map',
    entry,
    output: {
      path: outputPath,
      // A host serves deep links (/app/wallet) from its root; a remote learns its origin from its manifest URL.
      publicPath: hasHtml ? '/' : 'auto',
      uniqueName: app.federationName,
      // A content hash in the entry name breaks the federation runtime; chunks carry it instead.
      filename: '[name].js',
      chunkFilename: '[name].[contenthash:8].js',
      assetModuleFilename: 'assets/[name].[contenthash:8][ext]',
      clean: true,
    },
    resolve,
    module: {
      rules: [
        scriptRules(isProduction),
        ...styleRules(app, isProduction, extractsCss ? MiniCssExtractPlugin.loader : undefined),
        { test: /\.(png|svg|jpg|webp|ico)$/, type: 'asset/resource' },
      ],
    },
    plugins: [
      ...(extractsCss ? [new MiniCssExtractPlugin({ filename: '[name].[contenthash:8].css' })] : []),
      staticRemotes
        ? new (require('webpack').NormalModuleReplacementPlugin)(
            /shell[\\/]src[\\/]features[\\/]remotes[\\/]federation\.ts$/,
            writeStaticFederationModule(),
          )
        : new ModuleFederationPlugin(federation),
      ...(hasHtml
        ? [
            new HtmlWebpackPlugin({
              template: fs.existsSync(path.join(publicDir, 'index.html'))
                ? path.join(publicDir, 'index.html')
                : path.join(__dirname, 'standalone.html'),
              chunks: ['main'],
              scriptLoading: 'defer',
              title: 'Time Wallet',
            }),
            new CopyPublicPlugin(publicDir),
          ]
        : []),
      // A host's first-visit pages as HTML (its src/app/prerender.tsx), from the same components and loaders, and the
      // chunks its first render needs preloaded beside its entry.
      ...(app.kind === 'host' && isProduction
        ? [new InlineTemplateScriptsPlugin(), new StartupPreloadPlugin(), prerenderPlugin('host')]
        : []),
      // A remote's pages' first frames (its src/app/first-frames.tsx), which the shell's server puts in their HTML.
      ...(app.kind === 'remote' && !standalone && isProduction ? [prerenderPlugin('remote')] : []),
    ],
    performance: { hints: false },
    optimization: {
      moduleIds: 'deterministic',
      chunkIds: isProduction ? 'deterministic' : 'named',
      ...(app.kind === 'host' && isProduction ? { splitChunks: startupSplitChunks(appDir, entry.main) } : {}),
      // swc's minifier, not webpack's default (terser, two compress passes): the shell's framework chunk alone held a
      // terser worker for 13 of the shell build's 29 s. Same plugin, so licence comments are extracted as before.
      // In this process: swc's async minify runs on a native thread already, and the plugin's pool for it would be
      // child processes, each loading Node again.
      // The extracted stylesheets as css-loader gives them held their comments and indentation (the shell's was 11 %
      // comments): esbuild, with no target, removes those and writes the same values shorter, lowering no syntax. Both
      // run before webpack's real content hashes, so a file's name still follows its content.
      minimizer: [
        new MinimizerPlugin({
          minify: MinimizerPlugin.swcMinify,
          minimizerOptions: { compress: { passes: 2 }, mangle: true },
          parallel: false,
        }),
        new MinimizerPlugin({ test: /\.css$/i, minify: MinimizerPlugin.esbuildMinifyCss, parallel: false }),
      ],
    },
    stats: 'errors-warnings',
    devServer: devServerFor(app, portOf(app), { standalone }),
  };
}

module.exports = { createConfig, appFromDir };
