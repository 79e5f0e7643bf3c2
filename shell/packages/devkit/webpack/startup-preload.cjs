const HtmlWebpackPlugin = require('html-webpack-plugin');

const NAME = 'StartupPreloadPlugin';

/** The chunk groups an entry module's own dynamic imports start (the host's `import('./app/bootstrap')`). */
function groupsStartedBy(compilation, entryModules) {
  const groups = new Set();
  for (const module of entryModules) {
    for (const block of module.blocks) {
      const group = compilation.chunkGraph.getBlockChunkGroup(block);
      if (group) groups.add(group);
    }
  }
  return groups;
}

/**
 * The files a host's first render needs beyond its entry, scripts and stylesheets: the chunks its entry imports
 * dynamically (the async boundary) and, for every shared module those chunks consume, the chunks of the host's own
 * provided copy (the host provides every singleton, so that copy is the one the share scope hands out), following
 * consumes inside those too.
 */
function startupFiles(compilation, entryName) {
  const { chunkGraph } = compilation;
  const entrypoint = compilation.entrypoints.get(entryName);
  if (!entrypoint) return [];
  const entryModules = entrypoint.chunks.flatMap((chunk) => [
    ...chunkGraph.getChunkEntryModulesIterable(chunk),
  ]);
  const providers = new Map();
  for (const module of compilation.modules) {
    if (module.type === 'provide-module') {
      const group = module.blocks.map((block) => chunkGraph.getBlockChunkGroup(block)).find(Boolean);
      if (group) providers.set(module._name, group);
    }
  }
  const seen = new Set(entrypoint.chunks);
  const queue = [...groupsStartedBy(compilation, entryModules)].flatMap((group) => group.chunks);
  const files = [];
  while (queue.length > 0) {
    const chunk = queue.shift();
    if (seen.has(chunk)) continue;
    seen.add(chunk);
    for (const file of chunk.files) if (/\.(js|css)$/.test(file)) files.push(file);
    for (const module of chunkGraph.getChunkModulesIterable(chunk)) {
      if (module.type !== 'consume-shared-module') continue;
      const provider = providers.get(module.options.shareKey);
      if (provider) queue.push(...provider.chunks);
    }
  }
  return files;
}

/**
 * Preloads, from the HTML, the chunks and stylesheets the host's first render loads after its entry has run (webpack's
 * runtime resolves a chunk only once its stylesheet has loaded too): without it they are requested only once main.js
 * is downloaded and evaluated (a second round trip plus the entry's evaluation on the critical path); with it they
 * download beside main.js. Prerendered documents, which paint their largest element from the HTML, leave them out
 * (prerender.cjs).
 */
class StartupPreloadPlugin {
  constructor({ entryName = 'main' } = {}) {
    this.entryName = entryName;
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap(NAME, (compilation) => {
      HtmlWebpackPlugin.getCompilationHooks(compilation).alterAssetTagGroups.tap(NAME, (data) => {
        const publicPath = data.publicPath ?? '';
        const preloads = startupFiles(compilation, this.entryName).map((file) =>
          HtmlWebpackPlugin.createHtmlTagObject('link', {
            rel: 'preload',
            as: file.endsWith('.css') ? 'style' : 'script',
            href: `${publicPath}${file}`,
            // A preload is fetched at high priority, ahead of the deferred main.js, which starts the config,
            // session and remote requests: low keeps main.js first (1.2 -> 2.6 s of FCP on /app/wallet without it).
            fetchpriority: 'low',
          }),
        );
        // After the entry's own tags: the entry is requested first, its chunks next.
        data.headTags.push(...preloads);
        return data;
      });
    });
  }
}

module.exports = { StartupPreloadPlugin, startupFiles };
