import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';

const require = createRequire(import.meta.url);
const { repoRoot, remotes } = require('@time-wallet/devkit/apps');

// The shell routes to pages by remote and expose name (its unit test ties those to apps.cjs); this proves every
// production build still publishes them, with the shared modules the shell provides and none of its own.
describe('remote contracts (built manifests)', () => {
  for (const remote of remotes) {
    it(`${remote.dir} publishes every page the shell uses`, () => {
      const manifestFile = path.join(repoRoot, remote.dir, 'dist', 'mf-manifest.json');
      const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
      assert.equal(manifest.name, remote.federationName);
      const exposed = manifest.exposes.map((expose) => expose.path);
      for (const expose of Object.keys(remote.exposes)) {
        assert.ok(
          exposed.includes(expose),
          `${remote.dir} must expose ${expose} (has ${exposed.join(', ')})`,
        );
      }
      const remoteEntry = manifest.metaData.remoteEntry;
      assert.ok(
        fs.existsSync(path.join(repoRoot, remote.dir, 'dist', remoteEntry.path ?? '', remoteEntry.name)),
      );
      for (const shared of manifest.shared) {
        assert.equal(shared.singleton, true, `${shared.name} is a singleton`);
        assert.deepEqual(shared.assets.js.sync, [], `${remote.dir} ships no copy of ${shared.name}`);
      }
    });

    // Redux, RTK and react-router reach remotes only through @time-wallet/api (not shared themselves, so the shell
    // ships only what is used); a remote importing them directly would bundle a second router or store unnoticed.
    it(`${remote.dir} bundles no copy of the framework, the store or the router`, () => {
      const distDir = path.join(repoRoot, remote.dir, 'dist');
      const maps = fs.readdirSync(distDir).filter((file) => file.endsWith('.js.map'));
      assert.ok(maps.length > 0, 'production builds write source maps');
      const bundled = maps.flatMap(
        (file) => JSON.parse(fs.readFileSync(path.join(distDir, file), 'utf8')).sources,
      );
      const forbidden = bundled.filter((source) =>
        /node_modules\/(react|react-dom|react-router|react-router-dom|redux|react-redux|@reduxjs\/toolkit|immer|react-hot-toast)\//.test(
          source,
        ),
      );
      assert.deepEqual(forbidden, [], `${remote.dir} bundles its own copy of shared code`);
    });
  }
});
