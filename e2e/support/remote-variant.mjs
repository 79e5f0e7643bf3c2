import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { repoRoot } = require('@time-wallet/devkit/apps');
const { createConfig } = require('@time-wallet/devkit/webpack');

/**
 * A new version of one remote, as its team would publish it: a copy of its sources with one visible change,
 * built with the shared config into its own folder. The original sources and builds are never touched.
 * `version` sets the copy's package.json version, which the build's manifest carries as its buildVersion.
 */
export async function buildRemoteVariant(remoteDir, { file, replace: [from, to], version }) {
  const webpack = require('webpack');
  const workDir = path.join(repoRoot, '.e2e-tmp', `${remoteDir}-${Date.now()}`);
  const appDir = path.join(workDir, remoteDir);
  fs.mkdirSync(appDir, { recursive: true });
  for (const entry of ['src', 'package.json']) {
    fs.cpSync(path.join(repoRoot, remoteDir, entry), path.join(appDir, entry), { recursive: true });
  }
  const changed = path.join(appDir, file);
  const source = fs.readFileSync(changed, 'utf8');
  if (!source.includes(from)) throw new Error(`${file} does not contain "${from}"`);
  fs.writeFileSync(changed, source.replace(from, to));
  if (version) {
    const packageFile = path.join(appDir, 'package.json');
    const manifest = JSON.parse(fs.readFileSync(packageFile, 'utf8'));
    fs.writeFileSync(packageFile, JSON.stringify({ ...manifest, version }, null, 2));
  }

  const distDir = path.join(workDir, 'dist');
  const config = createConfig(appDir, { outputPath: distDir }, { mode: 'production' });
  // As release-build.mjs's TEST_BUILD_FLAGS: the same code, unminified and without source maps.
  config.optimization = { ...config.optimization, minimize: false };
  config.devtool = false;
  await new Promise((resolve, reject) =>
    webpack(config).run((error, stats) =>
      error || stats.hasErrors() ? reject(error ?? new Error(stats.toString('errors-only'))) : resolve(),
    ),
  );
  return { distDir, remove: () => fs.rmSync(workDir, { recursive: true, force: true }) };
}

/** Each file under `dir` by its SHA-256: two builds compare equal when every byte of every file is the same. */
export function digestTree(dir) {
  const digests = {};
  for (const file of fs.readdirSync(dir, { recursive: true }).map(String).sort()) {
    const full = path.join(dir, file);
    if (fs.statSync(full).isFile())
      digests[file] = crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex');
  }
  return digests;
}
