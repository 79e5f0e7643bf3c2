const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFile } = require('node:child_process');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { htmlTagObjectToString } = require('html-webpack-plugin/lib/html-tags');
const { firstFrames } = require('../apps.cjs');

/** The app module a host may provide: `export function prerender(): PrerenderedPage[]` (see the shell's). */
const PRERENDER_MODULE = 'src/app/prerender.tsx';
/**
 * The module a remote may provide: `export function prerender(): FirstFrame[]`, each `{ page, html }`, the markup its
 * registry page draws before its data has come (see mfe-analytics's). The plugin writes each as <dir>/<page>.html
 * (registry.json's firstFrames) with its critical CSS; the shell's static server puts it in the page's first HTML
 * (serve/first-frames.mjs).
 */
const FIRST_FRAME_MODULE = 'src/app/first-frames.tsx';
/** The static server answers each path listed here with its document (PRERENDERED_PAGES, serve/static-server.mjs). */
const MANIFEST = 'prerendered.json';
const NAME = 'PrerenderPlugin';

/** The app's module of that name, if it has one. */
function moduleOf(appDir, name) {
  const file = path.join(appDir, name);
  return fs.existsSync(file) ? file : null;
}

/**
 * The bundle's entry: the app's pages plus the stylesheets their modules registered (prerender-css.cjs). Generated,
 * like the standalone entry, so the app's own module needs to know nothing about the build.
 */
function writeEntry(dir, moduleFile) {
  const file = path.join(dir, 'entry.js');
  fs.writeFileSync(
    file,
    [
      `import { prerender } from ${JSON.stringify(moduleFile)};`,
      `import { registeredSheets } from ${JSON.stringify(require.resolve('./prerender-css.cjs'))};`,
      'export function run() {',
      '  const pages = prerender();',
      '  return { pages, sheets: registeredSheets() };',
      '}',
      '',
    ].join('\n'),
  );
  return file;
}

/** Compiles the prerender module for Node into `dir` with the app's own rules; resolves to the bundle's path. */
function compileBundle(webpack, dir, { appDir, moduleFile, rules, resolve }) {
  const compiler = webpack({
    context: appDir,
    mode: 'production',
    target: 'node',
    devtool: false,
    entry: writeEntry(dir, moduleFile),
    output: { path: dir, filename: 'prerender.cjs', library: { type: 'commonjs2' }, publicPath: '/' },
    // React stays one copy, Node's: react-dom/server must see the same React the components call. Required by full
    // path, since the bundle runs from a temporary folder.
    externals: ({ request }, callback) =>
      /^react(-dom)?(\/.*)?$/.test(request)
        ? callback(null, `commonjs ${require.resolve(request, { paths: [appDir] })}`)
        : callback(),
    resolve,
    module: { rules },
    optimization: { minimize: false },
    performance: { hints: false },
    stats: 'errors-warnings',
  });
  return new Promise((resolvePromise, reject) => {
    compiler.run((error, stats) => {
      compiler.close(() => {
        if (error) reject(error);
        else if (stats.hasErrors()) reject(new Error(stats.toString({ all: false, errors: true })));
        else resolvePromise(path.join(dir, 'prerender.cjs'));
      });
    });
  });
}

/** Runs the bundle in a child Node (production React, nothing left in the build's process) and returns its output. */
function runBundle(bundle) {
  const runner = 'process.stdout.write(JSON.stringify(require(process.argv[1]).run()))';
  return new Promise((resolvePromise, reject) => {
    execFile(
      process.execPath,
      ['-e', runner, bundle],
      { env: { ...process.env, NODE_ENV: 'production' }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`prerendering failed: ${stderr || error.message}`));
        else resolvePromise(JSON.parse(stdout));
      },
    );
  });
}

/** The class names a piece of markup uses. */
function classesIn(html) {
  return new Set([...html.matchAll(/\sclass="([^"]*)"/g)].flatMap((match) => match[1].split(/\s+/)));
}

// Comments and indentation only: both are safe to drop anywhere in our stylesheets, and gzip does the rest.
const compactCss = (css) =>
  css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s+/gm, '')
    .trim();

/**
 * A page's critical CSS: every global stylesheet (the design tokens and base rules) and each CSS module whose class
 * names its markup uses, in the order the app imports them. A page's other modules are not needed to draw it.
 */
function criticalCss(sheets, html) {
  const used = classesIn(html);
  return sheets
    .filter((sheet) => sheet.classes.length === 0 || sheet.classes.some((name) => used.has(name)))
    .map((sheet) => compactCss(sheet.css))
    .join('\n');
}

function replaceOnce(html, pattern, replacement, what) {
  let found = false;
  const result = html.replace(pattern, (...match) => {
    found = true;
    return typeof replacement === 'function' ? replacement(...match) : replacement;
  });
  if (!found) throw new Error(`prerender: the HTML template has no ${what}`);
  return result;
}

/**
 * One prerendered document from the app's HTML template: the page's markup in #root and its critical CSS inlined; the
 * app's script tags for a page that hands over to the app, none for a static one (its <noscript> goes too, since it
 * works without scripts). Scripts the template itself names (theme-init.js) stay in both.
 */
function documentFor(page, { template, headTags, bodyTags, sheets }) {
  let html = replaceOnce(
    template,
    /<div id="root"><\/div>/,
    () => `<div id="root">${page.html}</div>`,
    '<div id="root"></div>',
  );
  const css = criticalCss(sheets, page.html);
  const head = `<style>${css}</style>${page.app ? headTags.join('') : ''}`;
  html = replaceOnce(html, /<\/head>/, () => `${head}</head>`, '</head>');
  if (page.app) html = replaceOnce(html, /<\/body>/, () => `${bodyTags.join('')}</body>`, '</body>');
  else html = replaceOnce(html, /<noscript>[\s\S]*?<\/noscript>\s*/, '', '<noscript>');
  return html;
}

/**
 * A remote's first frame as the file the shell's static server reads: the page's critical CSS (its own build's copy of
 * every stylesheet its markup uses, shared-ui's included, so it draws alike beside any shell) and its markup.
 */
function firstFrameFile(frame, sheets) {
  return `<style>${criticalCss(sheets, frame.html)}</style>${frame.html}`;
}

/**
 * Prerenders a host's first-visit pages at build time: compiles its src/app/prerender.tsx for Node with the same
 * loaders (CSS modules hash their class names the same way, so the markup matches the app's), renders it with
 * react-dom/server, and emits one document per page next to index.html, built from the same template, plus
 * prerendered.json, which tells the static server which paths they answer. The Node compile starts with the app's own
 * and runs beside it. For a remote the same compile and render give its pages' first frames (firstFrameFile).
 */
class PrerenderPlugin {
  /**
   * `kind`: a host prerenders whole documents (PRERENDER_MODULE), a remote its pages' first frames
   * (FIRST_FRAME_MODULE).
   */
  constructor({ appDir, rules, resolve, kind = 'host', firstFramePages = [] }) {
    const moduleFile = moduleOf(appDir, kind === 'host' ? PRERENDER_MODULE : FIRST_FRAME_MODULE);
    this.options = { appDir, moduleFile, rules, resolve };
    this.kind = kind;
    /** A remote's pages marked firstFrame in the registry: exactly the frames its module must give. */
    this.firstFramePages = firstFramePages;
  }

  apply(compiler) {
    if (this.kind === 'remote' && !this.options.moduleFile && this.firstFramePages.length > 0) {
      compiler.hooks.thisCompilation.tap(NAME, (compilation) => {
        compilation.errors.push(
          new compiler.webpack.WebpackError(
            `the registry marks ${this.firstFramePages.join(', ')} firstFrame, and ${FIRST_FRAME_MODULE} is missing`,
          ),
        );
      });
      return;
    }
    if (!this.options.moduleFile) return;
    let rendering = null;
    compiler.hooks.compile.tap(NAME, () => {
      rendering = (async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'time-wallet-prerender-'));
        try {
          return await runBundle(await compileBundle(compiler.webpack, dir, this.options));
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      })();
      // Awaited when the HTML is written; until then a failure must not count as unhandled.
      rendering.catch(() => undefined);
    });
    compiler.hooks.thisCompilation.tap(NAME, (compilation) => {
      const { RawSource } = compiler.webpack.sources;
      if (this.kind === 'remote') {
        compilation.hooks.processAssets.tapPromise(
          { name: NAME, stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
          async () => {
            const { pages, sheets } = await rendering;
            // The server's own limits (serve/first-frames.mjs), so a frame it would refuse fails the build instead.
            const { FIRST_FRAME_MAX_BYTES, FORBIDDEN } = await import('../serve/first-frames.mjs');
            const problems = [];
            const given = pages.map((frame) => frame.page).sort();
            const expected = [...this.firstFramePages].sort();
            if (given.join() !== expected.join())
              problems.push(
                `its frames are of [${given}], the registry's firstFrame pages are [${expected}]`,
              );
            for (const frame of pages) {
              const file = firstFrameFile(frame, sheets);
              const bytes = Buffer.byteLength(file);
              if (bytes > FIRST_FRAME_MAX_BYTES)
                problems.push(`${frame.page}: ${bytes} bytes, over ${FIRST_FRAME_MAX_BYTES}`);
              if (FORBIDDEN.test(file)) problems.push(`${frame.page}: holds scripts, frames or handlers`);
              compilation.emitAsset(`${firstFrames.dir}/${frame.page}.html`, new RawSource(file));
            }
            for (const problem of problems)
              compilation.errors.push(new compiler.webpack.WebpackError(`${FIRST_FRAME_MODULE}: ${problem}`));
          },
        );
        return;
      }
      HtmlWebpackPlugin.getCompilationHooks(compilation).afterTemplateExecution.tapPromise(
        NAME,
        async (data) => {
          if (data.outputName !== 'index.html') return data;
          const { pages, sheets } = await rendering;
          const context = {
            template: data.html,
            // Not the start-up preloads (startup-preload.cjs): a prerendered page paints its largest element itself,
            // and preloads started with the HTML share the first round trips with it (Lighthouse counts them
            // against its LCP: 1.5 -> 2.2 s on the login page); the app's chunks still load as soon as main.js runs.
            headTags: data.headTags
              .filter((tag) => !(tag.tagName === 'link' && tag.attributes.rel === 'preload'))
              .map((tag) => htmlTagObjectToString(tag, false)),
            bodyTags: data.bodyTags.map((tag) => htmlTagObjectToString(tag, false)),
            sheets,
          };
          const manifest = {};
          for (const page of pages) {
            compilation.emitAsset(page.file, new RawSource(documentFor(page, context)));
            for (const pagePath of page.paths) manifest[pagePath] = page.file;
          }
          compilation.emitAsset(MANIFEST, new RawSource(`${JSON.stringify(manifest, null, 2)}\n`));
          return data;
        },
      );
    });
  }
}

module.exports = { PrerenderPlugin };
