/**
 * The prerender bundle's stand-in for style-loader (see prerender.cjs). Used as a loader, its pitch makes each CSS
 * file a module that registers its text and class names here and exports the class names as usual; at render time
 * the plugin reads what registered, to inline the stylesheets a page's markup uses.
 */
const sheets = [];

/** Called by each CSS module of the bundle as it is evaluated, so the order is the app's cascade order. */
function register(file, content) {
  const classes = Object.values(content.locals ?? {}).flatMap((names) => String(names).split(/\s+/));
  sheets.push({ file, css: String(content), classes });
}

function registeredSheets() {
  return sheets;
}

function pitch(remainingRequest) {
  // `!!`: css-loader alone, not this loader again; the module then looks like style-loader's to the component.
  const cssRequest = JSON.stringify(this.utils.contextify(this.context, `!!${remainingRequest}`));
  return [
    `import content from ${cssRequest};`,
    `import { register } from ${JSON.stringify(__filename)};`,
    `register(${JSON.stringify(this.resourcePath)}, content);`,
    'export default content.locals || {};',
  ].join('\n');
}

module.exports = { register, registeredSheets, pitch };
