const HtmlWebpackPlugin = require('html-webpack-plugin');

const NAME = 'InlineTemplateScriptsPlugin';
// A script the HTML template itself names from the public folder (theme-init.js), as the template writes it.
const TEMPLATE_SCRIPT = /<script src="\/([\w.-]+\.js)"><\/script>/g;

/**
 * Production builds of a host: the scripts its HTML template names from the public folder (theme-init.js, which
 * must run before the first paint) go inline into every document, so the first paint waits on no request after the
 * HTML (Lighthouse mobile, same-run A/B: FCP 0.9-1.1 s -> 0.7-0.9 s). The CSP still allows no inline code but these:
 * the static server names each inline script of a page it serves by its hash (see static-server.mjs). Their files are
 * still emitted, for the dev server's pages. Tapped before the prerender plugin, which builds its documents from this
 * template.
 */
class InlineTemplateScriptsPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap(NAME, (compilation) => {
      HtmlWebpackPlugin.getCompilationHooks(compilation).afterTemplateExecution.tap(NAME, (data) => {
        data.html = data.html.replace(TEMPLATE_SCRIPT, (tag, file) => {
          const asset = compilation.getAsset(file);
          if (!asset) {
            compilation.errors.push(
              new Error(`${NAME}: the template names /${file}, which the build does not emit`),
            );
            return tag;
          }
          const code = asset.source.source().toString().trim();
          if (/<\/script|<!--/i.test(code)) {
            compilation.errors.push(new Error(`${NAME}: /${file} cannot go inside a <script> element`));
            return tag;
          }
          return `<script>${code}</script>`;
        });
        return data;
      });
    });
  }
}

module.exports = { InlineTemplateScriptsPlugin };
