// Where a page's JavaScript bytes are: every script a first visit downloads (gzip -9, as the static servers send it),
// and inside them each source module's share, read from the build's source maps (minified bytes per module, scaled
// to the file's gzip size). Usage: E2E_PORT_OFFSET=800 node e2e/bench/js-breakdown.mjs [/app/wallet] [--top 15]
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { SourceMapConsumer } from 'source-map-js';
import { startStack } from '../support/stack.mjs';
import { launchBrowser } from '../support/browser.mjs';
import { apiClient, storeSession } from '../support/api-client.mjs';
import { distDirsOf, kb, recordScripts } from '../support/bytes.mjs';

const require = createRequire(import.meta.url);
const { shell } = require('@time-wallet/devkit/apps');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '15' } },
});
const pagePath = positionals[0] ?? '/app/wallet';
const top = Number(values.top);

/** Minified bytes per original source of one built file, from its source map (unmapped bytes go to "(unmapped)"). */
function bytesPerSource(file, code) {
  const mapFile = `${file}.map`;
  const sizes = new Map();
  if (!fs.existsSync(mapFile)) return new Map([['(no source map)', code.length]]);
  const consumer = new SourceMapConsumer(JSON.parse(fs.readFileSync(mapFile, 'utf8')));
  const lines = code.split('\n');
  const mappings = [];
  consumer.eachMapping((mapping) => mappings.push(mapping));
  // Generated order: each mapping owns the bytes up to the next mapping on the same line.
  mappings.sort((a, b) => a.generatedLine - b.generatedLine || a.generatedColumn - b.generatedColumn);
  const add = (source, count) => sizes.set(source, (sizes.get(source) ?? 0) + count);
  let mapped = 0;
  for (let index = 0; index < mappings.length; index += 1) {
    const mapping = mappings[index];
    const next = mappings[index + 1];
    const lineLength = lines[mapping.generatedLine - 1]?.length ?? 0;
    const end = next && next.generatedLine === mapping.generatedLine ? next.generatedColumn : lineLength;
    const count = Math.max(0, end - mapping.generatedColumn);
    add(mapping.source ?? '(unmapped)', count);
    mapped += count;
  }
  add('(unmapped)', Math.max(0, code.length - mapped));
  return sizes;
}

/** "react-dom", "@module-federation/runtime-core", or our own "shell/src/..." path. */
function packageOf(source) {
  const clean = source.replace(/^webpack:\/\/[^/]*\//, '').replace(/^\.\//, '');
  const match = clean.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (match) return match[1];
  return clean.split('/').slice(0, 2).join('/');
}
const shortSource = (source) =>
  source
    .replace(/^webpack:\/\/[^/]*\//, '')
    .replace(/^(\.\.\/)+/, '')
    .replace(/.*node_modules\//, 'nm/');

const stack = await startStack();
const rows = [];
try {
  const account = await apiClient(stack.apiBaseUrl).signUp('breakdown');
  const browser = await launchBrowser();
  try {
    if (pagePath.startsWith('/app/')) await storeSession(browser.page, stack.shellUrl, account);
    const scripts = recordScripts(browser.page, stack);
    await browser.page.goto(`${stack.shellUrl}${pagePath}`);
    await browser.page.getByRole('heading', { level: 1 }).first().waitFor();
    await browser.page.waitForLoadState('networkidle');
    const dirs = distDirsOf(stack);
    for (const download of scripts.since(0)) {
      const dir = dirs.get(download.origin);
      const app = dir ? path.basename(path.dirname(dir)) : download.origin;
      rows.push({ ...download, app, dir });
    }
  } finally {
    await browser.close();
  }
} finally {
  await stack.stop();
}

const total = rows.reduce((sum, row) => sum + row.gzip, 0);
console.log(`\n## ${pagePath}: ${rows.length} scripts, ${kb(total).toFixed(1)} KB gzip\n`);
console.log('| app | file | kind | KB gz |\n|---|---|---|---|');
for (const row of [...rows].sort((a, b) => b.gzip - a.gzip))
  console.log(`| ${row.app} | ${row.file} | ${row.kind} | ${kb(row.gzip).toFixed(1)} |`);

const modules = new Map();
const packages = new Map();
for (const row of rows) {
  if (!row.dir) continue;
  const file = path.join(row.dir, row.file.replace(/^v\/[^/]+\//, ''));
  if (!fs.existsSync(file)) continue;
  const code = fs.readFileSync(file, 'utf8');
  const sizes = bytesPerSource(file, code);
  const minified = [...sizes.values()].reduce((sum, size) => sum + size, 0);
  for (const [source, size] of sizes) {
    const share = (size / minified) * row.gzip;
    const key = `${row.app}: ${shortSource(source)}`;
    modules.set(key, (modules.get(key) ?? 0) + share);
    const pkg = `${row.app}: ${packageOf(source)}`;
    packages.set(pkg, (packages.get(pkg) ?? 0) + share);
  }
}
const table = (title, map, count) => {
  console.log(`\n### ${title}\n\n| what | KB gz (share) |\n|---|---|`);
  for (const [name, size] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count))
    console.log(`| ${name} | ${kb(size).toFixed(2)} |`);
};
table(`Top ${top} modules`, modules, top);
table('Per package (or our folder)', packages, 40);
console.log(`\n(shell dist: ${shell.dir}/dist; shares are minified bytes scaled to each file's gzip size)`);
