import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { repoRoot } = require('@time-wallet/devkit/apps');

// What an app's build reads besides its own folder (the registry and webpack config live in the devkit).
const TREE_PATHS = ['package.json', 'shell', 'shared-ui'];
// Our workspace packages a build resolves by name: inside the tree they must be the tree's own copies.
const WORKSPACE_LINKS = {
  api: 'shell/packages/api',
  devkit: 'shell/packages/devkit',
  'shared-ui': 'shared-ui',
};

/**
 * A test's extra build is production code left unminified and without source maps: it runs the same, and the shell's
 * build takes 6 s instead of 19 here. The suites' main builds (npm run build) stay exactly what ships.
 */
export const TEST_BUILD_FLAGS = ['--no-optimization-minimize', '--no-devtool'];

function versionOf(dir) {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, dir, 'package.json'), 'utf8')).version;
}

/**
 * The repository as it was at `commit`, to build an earlier release of some apps from: `git archive` into a folder
 * under .e2e-tmp (the repository's git state and working tree are not touched), with a node_modules that links every
 * installed package except our workspaces, which resolve inside the tree, so the tree's own devkit, api package and
 * shared-ui are what its builds use.
 *
 * Commits before issue 19 all say 0.0.0, so `stampVersions` writes versions into the tree's package.json files
 * before a build: by default each package's version in the working tree (the earlier commit read as an earlier build
 * of the current release line), `overrides` (folder -> version) for anything else.
 */
export function releaseTree(commit, apps) {
  const dir = path.join(repoRoot, '.e2e-tmp', `release-${commit}-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const archive = spawnSync('git', ['archive', '--format=tar', commit, ...TREE_PATHS, ...apps], {
    cwd: repoRoot,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr}`);
  const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);

  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(path.join(modules, '@time-wallet'), { recursive: true });
  for (const entry of fs.readdirSync(path.join(repoRoot, 'node_modules'))) {
    // Dot folders are caches and bin links, written by tools: the tree gets none of them.
    if (entry.startsWith('.') || entry === '@time-wallet') continue;
    fs.symlinkSync(path.join(repoRoot, 'node_modules', entry), path.join(modules, entry));
  }
  const workspaces = { ...WORKSPACE_LINKS, ...Object.fromEntries(apps.map((app) => [app, app])) };
  for (const [name, target] of Object.entries(workspaces)) {
    fs.symlinkSync(path.join(dir, target), path.join(modules, '@time-wallet', name));
  }

  const packageDirs = [...Object.values(WORKSPACE_LINKS), 'shell', ...apps];
  return {
    dir,
    /** Sets each package's version: its working-tree version unless `overrides` names its folder. */
    stampVersions(overrides = {}) {
      for (const packageDir of packageDirs) {
        const file = path.join(dir, packageDir, 'package.json');
        const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
        manifest.version = overrides[packageDir] ?? versionOf(packageDir);
        fs.writeFileSync(file, JSON.stringify(manifest, null, 2));
      }
    },
    /**
     * Builds one app of the tree for production with the tree's own webpack config, into `outputPath`. Not minified
     * and without source maps (TEST_BUILD_FLAGS): what these builds are for is which code runs beside which.
     */
    build(app, outputPath) {
      return new Promise((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            path.join(repoRoot, 'node_modules', 'webpack', 'bin', 'webpack.js'),
            '--mode',
            'production',
            '--env',
            `outputPath=${outputPath}`,
            ...TEST_BUILD_FLAGS,
          ],
          { cwd: path.join(dir, app), stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        child.on('error', reject);
        child.on('exit', (code) =>
          code === 0 ? resolve(outputPath) : reject(new Error(`building ${app} at ${commit}:\n${output}`)),
        );
      });
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
