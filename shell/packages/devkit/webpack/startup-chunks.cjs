const path = require('node:path');

const FRAMEWORK = /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/;
const NODE_MODULES = /[\\/]node_modules[\\/]/;
const FEDERATION_MODULES = new Set(['consume-shared-module', 'provide-module']);

/**
 * Whether a chunk is loaded by a host's first render: it belongs to a chunk group started by the entry module's own
 * dynamic import (the async boundary) or by the share scope (a provided singleton, or a consumed one's fallback, which
 * holds the same modules). Every singleton the host provides is one its own start-up imports (a host provides only
 * what it imports), so all of them load on a first visit. Lazy chunks started anywhere else (a page's own split
 * points) are left as webpack cuts them.
 */
function isStartupChunk(chunk, entryFile) {
  for (const group of chunk.groupsIterable) {
    for (const { module } of group.origins) {
      if (!module) continue;
      if (module.type === 'provide-module' || module.type === 'consume-shared-module') return true;
      if (module.resource === entryFile) return true;
    }
  }
  return false;
}

/**
 * A host's start-up code in three files instead of a dozen: the framework (React, react-dom: it changes least, so it
 * stays cached longest, and the byte budgets recognise it), the other packages, and our own code. Webpack's default
 * cut gives every shared module's chunk group its own small files, compressed apart, with small modules (style-loader's
 * runtime, shared-ui's helpers) copied into several of them. Measured on /app/wallet: 13 files of 146.0 KB gzip
 * become 3 of 138.5 KB.
 */
function startupSplitChunks(appDir, entry) {
  const entryFile = path.resolve(appDir, entry);
  // The share scope's own modules stay where webpack put them: a merged chunk holding the consumer of a module it also
  // provides would wait for itself as it loads.
  const group = (name, priority, pattern) => ({
    name,
    priority,
    test: (module) =>
      !FEDERATION_MODULES.has(module.type) && (!pattern || pattern.test(module.resource ?? '')),
    enforce: true,
  });
  return {
    chunks: (chunk) => isStartupChunk(chunk, entryFile),
    cacheGroups: {
      default: false,
      defaultVendors: false,
      framework: group('framework', 30, FRAMEWORK),
      vendors: group('vendors', 20, NODE_MODULES),
      app: group('app', 10, null),
    },
  };
}

module.exports = { startupSplitChunks };
