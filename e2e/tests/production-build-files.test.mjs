import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { createStaticServer, securityHeaders } from '@time-wallet/devkit/serve';
import { buildApp } from '../../shell/packages/devkit/bin/lib.mjs';

const require = createRequire(import.meta.url);
const { remotes } = require('@time-wallet/devkit/apps');
const {
  SINGLETONS,
  installedVersion,
  packageNameOf,
} = require('../../shell/packages/devkit/webpack/shared-modules.cjs');
const tags = remotes.find((remote) => remote.dir === 'mfe-tags');

/**
 * A production build keeps its source maps on disk for tools (the contract test and the byte budget read them) but
 * names none in its code, and the static server sends neither them nor the build's statistics or stamp.
 */
describe('a production build’s source maps and metadata stay off the wire', () => {
  let workDir;
  let dist;
  let server;
  let origin;

  before(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'time-wallet-build-files-'));
    dist = path.join(workDir, 'dist');
    await buildApp(tags, { outputPath: dist });
    // As `npm start` stamps the builds it makes (lib.mjs markBuilt).
    fs.writeFileSync(path.join(dist, '.build-stamp'), new Date().toISOString());
    server = createStaticServer({ root: dist, headers: securityHeaders() });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${server.address().port}`;
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  const builtFiles = (extension) => fs.readdirSync(dist).filter((file) => file.endsWith(extension));

  it('names no source map in its code, and keeps each one beside its file', () => {
    const scripts = builtFiles('.js');
    assert.ok(scripts.length > 1, 'an entry and chunks');
    for (const script of scripts) {
      // The comment a browser follows; style-loader's code also holds the words, for maps this build has none of.
      assert.doesNotMatch(
        fs.readFileSync(path.join(dist, script), 'utf8'),
        /^\/\/[#@] sourceMappingURL=/m,
        script,
      );
      assert.ok(fs.existsSync(path.join(dist, `${script}.map`)), `${script}.map is written`);
    }
  });

  it('writes its stylesheets minified: no comment, no indentation', () => {
    const stylesheets = builtFiles('.css');
    assert.ok(stylesheets.length > 0, 'the page has a stylesheet');
    for (const file of stylesheets) {
      const css = fs.readFileSync(path.join(dist, file), 'utf8');
      assert.doesNotMatch(css, /\/\*/, `${file} has no comment`);
      assert.doesNotMatch(css, /\n\s+\S/, `${file} has no indented line`);
    }
  });

  it('is served without its source maps, build statistics and stamp', async () => {
    const hidden = [...builtFiles('.map'), 'mf-stats.json', '.build-stamp'];
    for (const file of hidden) {
      assert.ok(fs.existsSync(path.join(dist, file)), `the build holds ${file}`);
      const response = await fetch(`${origin}/${file}`);
      await response.arrayBuffer();
      assert.equal(response.status, 404, file);
    }
    for (const file of ['mf-manifest.json', 'remoteEntry.js', ...builtFiles('.js')]) {
      const response = await fetch(`${origin}/${file}`);
      await response.arrayBuffer();
      assert.equal(response.status, 200, file);
    }
  });

  it('names in its manifest the range of each singleton the gate checks, and asks the runtime for none', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8'));
    const singletons = manifest.shared.filter((shared) => SINGLETONS.includes(shared.name));
    assert.ok(singletons.length >= 4, 'react, the api package, the UI kit, the toaster at least');
    for (const shared of singletons)
      assert.equal(
        shared.requiredVersion,
        `^${installedVersion(packageNameOf(shared.name))}`,
        `${shared.name} in mf-manifest.json`,
      );
    // The consume options in the code: a range there is parsed by the runtime's semver code on every remote's start.
    const code = builtFiles('.js')
      .map((file) => fs.readFileSync(path.join(dist, file), 'utf8'))
      .join('\n');
    assert.equal(code.match(/requiredVersion:!1\b/g)?.length, singletons.length, "each singleton's consume");
    assert.deepEqual(code.match(/requiredVersion:"[^"]*"/g) ?? [], [], 'and no range');
  });
});
