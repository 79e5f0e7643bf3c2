// Build-time (Node) half of the installable app: the web app manifest, its icons and the tags every document needs
// for them, all derived here from two sources: the artwork below (the one drawing of the icon, which the favicon is
// made from too) and shared-ui's theme tokens (the colours). Used by shell/webpack.config.cjs.
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const HtmlWebpackPlugin = require('html-webpack-plugin');

const NAME = 'PwaAssetsPlugin';
const TOKENS = require.resolve('@time-wallet/shared-ui/tokens.css');
// The constants the registration script (public/) needs, each from the one TypeScript file that defines it.
const SCRIPT_CONSTANTS = [
  { name: 'TOKEN_KEY', file: path.join(__dirname, '../../packages/api/src/local-storage.ts') },
  { name: 'WARM_MESSAGE_TYPE', file: path.join(__dirname, 'routes.ts') },
  { name: 'WARM_URL_LIMIT', file: path.join(__dirname, 'routes.ts') },
];

/** A constant's value from its TypeScript source: `export const NAME = 'text';` or `= 123;`, else an error. */
function constantOf(source, name) {
  const match = source.match(new RegExp(`^export const ${name} = (?:'([\\w.-]*)'|(\\d+));$`, 'm'));
  if (!match) throw new Error(`${NAME}: no "export const ${name} = 'text' | number;" to read`);
  return match[1] ?? match[2];
}

/** The registration script with each '__NAME__' string replaced by that constant's value. */
function withConstants(script, read = (file) => fs.readFileSync(file, 'utf8')) {
  let result = script;
  for (const { name, file } of SCRIPT_CONSTANTS) {
    const placeholder = `'__${name}__'`;
    if (!result.includes(placeholder)) throw new Error(`${NAME}: the registration has no ${placeholder}`);
    result = result.split(placeholder).join(`'${constantOf(read(file), name)}'`);
  }
  return result;
}

/** A theme's custom properties from tokens.css (the block that starts with `selector {`). */
function tokensOf(css, selector) {
  const start = css.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`${NAME}: tokens.css has no block "${selector} {"`);
  const body = css.slice(css.indexOf('{', start) + 1, css.indexOf('}', start));
  return Object.fromEntries(
    [...body.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map(([, name, value]) => [name, value.trim()]),
  );
}

/** The colours the app's chrome takes from the design tokens: the page background per theme and the brand. */
function themeColours(css = fs.readFileSync(TOKENS, 'utf8')) {
  const light = tokensOf(css, ":root[data-theme='light']");
  const dark = tokensOf(css, ":root[data-theme='dark']");
  const pick = (theme, name) => {
    if (!/^#[0-9a-f]{6}$/i.test(theme[name] ?? ''))
      throw new Error(`${NAME}: ${name} is not a #rrggbb colour`);
    return theme[name].toLowerCase();
  };
  return {
    light: pick(light, '--color-bg'),
    dark: pick(dark, '--color-bg'),
    brand: pick(light, '--color-brand'),
    glyph: pick(light, '--color-primary-contrast'),
  };
}

// ---- The artwork: a clock face on the brand colour, in a 32-unit square ----

const ART = {
  size: 32,
  cornerRadius: 8,
  ring: { cx: 16, cy: 16, r: 9 },
  hands: [
    [16, 10],
    [16, 16],
    [20, 19],
  ],
  stroke: 2.5,
};

function faviconSvg({ brand, glyph }) {
  const { size, cornerRadius, ring, hands, stroke } = ART;
  const [[x0, y0], ...rest] = hands;
  const handPath = `M${x0} ${y0}${rest.map(([x, y]) => `L${x} ${y}`).join('')}`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}">` +
    `<rect width="${size}" height="${size}" rx="${cornerRadius}" fill="${brand}"/>` +
    `<circle cx="${ring.cx}" cy="${ring.cy}" r="${ring.r}" fill="none" stroke="${glyph}" stroke-width="${stroke}"/>` +
    `<path d="${handPath}" fill="none" stroke="${glyph}" stroke-width="${stroke}" stroke-linecap="round" ` +
    `stroke-linejoin="round"/></svg>\n`
  );
}

const clamp01 = (value) => Math.min(1, Math.max(0, value));

function distanceToSegment(px, py, [ax, ay], [bx, by]) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = clamp01(((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/** Signed distance (art units, negative inside) to a rounded square covering the whole art. */
function distanceToRoundedSquare(x, y) {
  const { size, cornerRadius: r } = ART;
  const half = size / 2;
  const qx = Math.abs(x - half) - (half - r);
  const qy = Math.abs(y - half) - (half - r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

function hexToRgb(hex) {
  return [1, 3, 5].map((index) => Number.parseInt(hex.slice(index, index + 2), 16));
}

/**
 * The artwork as RGBA pixels, anti-aliased by distance. `maskable`: the background fills the square (the platform cuts
 * its own shape) and the glyph shrinks into the safe zone, the centre circle of 80% the icon's width.
 */
function rasterize(pixels, { brand, glyph }, { maskable = false } = {}) {
  const { size, ring, hands, stroke } = ART;
  const glyphScale = maskable ? 0.72 : 1;
  const unitsPerPixel = size / pixels;
  const background = hexToRgb(brand);
  const foreground = hexToRgb(glyph);
  const rgba = Buffer.alloc(pixels * pixels * 4);
  for (let row = 0; row < pixels; row += 1) {
    for (let column = 0; column < pixels; column += 1) {
      const x = (column + 0.5) * unitsPerPixel;
      const y = (row + 0.5) * unitsPerPixel;
      const cover = (distance) => clamp01(0.5 - distance / unitsPerPixel);
      const backgroundAlpha = maskable ? 1 : cover(distanceToRoundedSquare(x, y));
      // The glyph, in its own (possibly shrunk) coordinates around the centre.
      const gx = size / 2 + (x - size / 2) / glyphScale;
      const gy = size / 2 + (y - size / 2) / glyphScale;
      const ringDistance = Math.abs(Math.hypot(gx - ring.cx, gy - ring.cy) - ring.r) - stroke / 2;
      let handDistance = Infinity;
      for (let index = 1; index < hands.length; index += 1) {
        handDistance = Math.min(handDistance, distanceToSegment(gx, gy, hands[index - 1], hands[index]));
      }
      const glyphAlpha = cover(Math.min(ringDistance, handDistance - stroke / 2) * glyphScale);
      const offset = (row * pixels + column) * 4;
      for (let channel = 0; channel < 3; channel += 1) {
        rgba[offset + channel] = Math.round(
          background[channel] * (1 - glyphAlpha) + foreground[channel] * glyphAlpha,
        );
      }
      rgba[offset + 3] = Math.round(255 * Math.max(backgroundAlpha, glyphAlpha * backgroundAlpha));
    }
  }
  return rgba;
}

// ---- PNG encoding (RGBA, 8 bits a channel, no filtering): node:zlib is all it takes ----

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let crc = 0xffffffff;
  for (const byte of buffer) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function encodePng(pixels, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(pixels, 0);
  header.writeUInt32BE(pixels, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method variants, no interlace
  const rows = Buffer.alloc(pixels * (pixels * 4 + 1));
  for (let row = 0; row < pixels; row += 1) {
    rgba.copy(rows, row * (pixels * 4 + 1) + 1, row * pixels * 4, (row + 1) * pixels * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---- The manifest and the documents' tags ----

/** The icons browsers ask for: 192 and 512 (any purpose) and a maskable 512. */
const ICONS = [
  { file: 'icons/icon-192.png', size: 192, purpose: 'any' },
  { file: 'icons/icon-512.png', size: 512, purpose: 'any' },
  { file: 'icons/maskable-512.png', size: 512, purpose: 'maskable' },
];
const MANIFEST_FILE = 'manifest.webmanifest';
// The template's worker registration (public/), and how a document that loads the app names its entry.
const REGISTRATION_SCRIPT = 'register-service-worker.js';
const APP_ENTRY = /<script\b[^>]*\bsrc="?\/main\.js"?/;

function webManifest(colours) {
  return {
    id: '/',
    name: 'Time Wallet',
    short_name: 'Time Wallet',
    start_url: '/app/today',
    scope: '/',
    display: 'standalone',
    theme_color: colours.light,
    background_color: colours.light,
    icons: ICONS.map(({ file, size, purpose }) => ({
      src: `/${file}`,
      sizes: `${size}x${size}`,
      type: 'image/png',
      purpose,
    })),
  };
}

function headTags(colours) {
  return [
    `<link rel="manifest" href="/${MANIFEST_FILE}">`,
    `<meta name="theme-color" media="(prefers-color-scheme: light)" content="${colours.light}">`,
    `<meta name="theme-color" media="(prefers-color-scheme: dark)" content="${colours.dark}">`,
    `<link rel="apple-touch-icon" href="/${ICONS[0].file}">`,
  ].join('');
}

/**
 * Emits the manifest, the icons and favicon.svg, and writes the manifest link and the theme colours into the HTML
 * template before any other plugin reads it (the prerendered documents are built from it).
 */
class PwaAssetsPlugin {
  apply(compiler) {
    const { RawSource } = compiler.webpack.sources;
    compiler.hooks.thisCompilation.tap(NAME, (compilation) => {
      compilation.fileDependencies.add(TOKENS);
      compilation.fileDependencies.add(__filename);
      for (const { file } of SCRIPT_CONSTANTS) compilation.fileDependencies.add(file);
      const colours = themeColours();
      compilation.hooks.processAssets.tap(
        { name: NAME, stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          compilation.emitAsset('favicon.svg', new RawSource(faviconSvg(colours)));
          for (const { file, size, purpose } of ICONS) {
            const rgba = rasterize(size, colours, { maskable: purpose === 'maskable' });
            compilation.emitAsset(file, new RawSource(encodePng(size, rgba)));
          }
          compilation.emitAsset(
            MANIFEST_FILE,
            new RawSource(`${JSON.stringify(webManifest(colours), null, 2)}\n`),
          );
          // Emitted from public/ at this stage by the plugin tapped before this one, inlined later by the template.
          const registration = compilation.getAsset(REGISTRATION_SCRIPT);
          if (registration) {
            try {
              const script = withConstants(registration.source.source().toString());
              compilation.updateAsset(REGISTRATION_SCRIPT, new RawSource(script));
            } catch (error) {
              compilation.errors.push(error);
            }
          }
        },
      );
      // A static document (the landing page) runs none of the app's code, so it registers no worker either: the
      // registration the template inlines into every document is taken out of those that do not load the app.
      compilation.hooks.processAssets.tap(
        { name: NAME, stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_SUMMARIZE },
        () => {
          const registration = compilation.getAsset(REGISTRATION_SCRIPT);
          if (!registration) return;
          const inlined = `<script>${registration.source.source().toString().trim()}</script>`;
          for (const { name, source } of compilation.getAssets()) {
            if (!name.endsWith('.html')) continue;
            const html = source.source().toString();
            if (html.includes(inlined) && !APP_ENTRY.test(html)) {
              compilation.updateAsset(name, new RawSource(html.replace(inlined, '')));
            }
          }
        },
      );
      HtmlWebpackPlugin.getCompilationHooks(compilation).afterTemplateExecution.tap(
        { name: NAME, stage: -100 },
        (data) => {
          if (!data.html.includes('</head>')) {
            compilation.errors.push(new Error(`${NAME}: the HTML template has no </head>`));
            return data;
          }
          data.html = data.html.replace('</head>', `${headTags(colours)}</head>`);
          return data;
        },
      );
    });
  }
}

module.exports = {
  PwaAssetsPlugin,
  withConstants,
  themeColours,
  webManifest,
  encodePng,
  rasterize,
  faviconSvg,
  ICONS,
};
