const fs = require('node:fs');
const path = require('node:path');

/** Emits every file of a public folder (except the HTML template) unchanged at the root of the build. */
class CopyPublicPlugin {
  constructor(publicDir, exclude = ['index.html']) {
    this.publicDir = publicDir;
    this.exclude = new Set(exclude);
  }

  apply(compiler) {
    const { RawSource } = compiler.webpack.sources;
    compiler.hooks.thisCompilation.tap('CopyPublicPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'CopyPublicPlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          if (!fs.existsSync(this.publicDir)) return;
          for (const name of fs.readdirSync(this.publicDir)) {
            const file = path.join(this.publicDir, name);
            if (this.exclude.has(name) || !fs.statSync(file).isFile()) continue;
            compilation.fileDependencies.add(file);
            compilation.emitAsset(name, new RawSource(fs.readFileSync(file)));
          }
        },
      );
    });
  }
}

module.exports = { CopyPublicPlugin };
