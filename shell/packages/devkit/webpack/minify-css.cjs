const { transformSync } = require('esbuild');
const { Compilation, sources } = require('webpack');

/**
 * Minifies a production build's stylesheets (mini-css-extract-plugin writes them as css-loader gives them: comments,
 * indentation and all; the shell's was 11 % comments). esbuild's minifier, with no target, lowers no syntax: it
 * removes comments and whitespace and writes the same values shorter. It runs before webpack's real content hashes
 * are computed, so a file's name still follows its content.
 */
class MinifyCssPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('MinifyCssPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'MinifyCssPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE },
        (assets) => {
          for (const name of Object.keys(assets).filter((file) => file.endsWith('.css'))) {
            const { code } = transformSync(assets[name].source().toString(), {
              loader: 'css',
              minify: true,
            });
            compilation.updateAsset(name, new sources.RawSource(code));
          }
        },
      );
    });
  }
}

module.exports = { MinifyCssPlugin };
