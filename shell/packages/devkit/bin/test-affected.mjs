import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildAll, repoRoot } from './lib.mjs';
import { ensureChromium, MissingPrerequisiteError } from './test-prerequisites.mjs';

/**
 * `npm run test:affected [-- --since <ref>]`: `npm test` of each package changed since a git ref (the working tree
 * against it, so uncommitted edits count) and of every package that depends on one, chosen and run by lerna
 * (`lerna run test --since <ref> --include-dependents`), one package at a time. The ref defaults to origin/main when
 * there is one, else main. A change outside every package (root configuration, the lockfile) can affect any of them,
 * so it tests every package. Before lerna runs anything this prints which packages it chose and why (`--dry-run`:
 * only that).
 */
const { values } = parseArgs({ options: { since: { type: 'string' }, 'dry-run': { type: 'boolean' } } });

const git = (...args) => spawnSync('git', args, { cwd: repoRoot, encoding: 'utf8' });
const refExists = (ref) => git('rev-parse', '--verify', '--quiet', `${ref}^{commit}`).status === 0;

const since = values.since ?? (refExists('origin/main') ? 'origin/main' : 'main');
if (!refExists(since)) {
  console.error(`test:affected: ${since} is not a commit here; name one with -- --since <ref>`);
  process.exit(1);
}

const lernaBin = path.join(repoRoot, 'node_modules', '.bin', 'lerna');
// Nx runs lerna's tasks; its daemon would outlive this command, for no gain on one run.
const lernaEnv = { ...process.env, NX_DAEMON: 'false' };

function lernaList(filters) {
  const result = spawnSync(lernaBin, ['ls', '--all', '--json', '--loglevel', 'error', ...filters], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: lernaEnv,
  });
  if (result.status !== 0) throw new Error(`lerna ls failed:\n${result.stderr}`);
  return JSON.parse(result.stdout || '[]').map(({ name, location }) => ({
    name,
    dir: path.relative(repoRoot, location).split(path.sep).join('/'),
  }));
}

const everyPackage = lernaList([]);
const manifestOf = (dir) => JSON.parse(fs.readFileSync(path.join(repoRoot, dir, 'package.json'), 'utf8'));
const internalDependencies = new Map(
  everyPackage.map(({ name, dir }) => {
    const manifest = manifestOf(dir);
    const declared = { ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies };
    return [
      name,
      Object.keys(declared).filter((dependency) => everyPackage.some((p) => p.name === dependency)),
    ];
  }),
);

/** The package a file belongs to: the deepest package folder holding it (the shell holds the api and devkit). */
function packageOf(file) {
  return everyPackage
    .filter(({ dir }) => file.startsWith(`${dir}/`))
    .sort((a, b) => b.dir.length - a.dir.length)[0];
}

const lines = (text) => text.split('\n').filter(Boolean);
const changedFiles = lines(git('diff', '--name-only', since).stdout);
const untracked = lines(git('ls-files', '--others', '--exclude-standard').stdout);

// Prose and git's own settings change no package's behaviour; anything else outside a package may change them all.
const affectsNothing = (file) => file.endsWith('.md') || file.startsWith('docs/') || file === '.gitignore';
const outside = changedFiles.filter((file) => !packageOf(file) && !affectsNothing(file));

const ownChanges = new Map();
for (const file of changedFiles) {
  const owner = packageOf(file);
  if (owner) ownChanges.set(owner.name, [...(ownChanges.get(owner.name) ?? []), file]);
}

/** Why a package was chosen: its own changed files, or the changed package it depends on (directly or not). */
function reasonFor(name, seen = new Set()) {
  const files = ownChanges.get(name);
  if (files) {
    const shown = files.slice(0, 3).join(', ');
    return `changed: ${files.length} file${files.length === 1 ? '' : 's'} (${shown}${files.length > 3 ? ', ...' : ''})`;
  }
  seen.add(name);
  const dependencies = internalDependencies.get(name) ?? [];
  const changed = dependencies.find((dependency) => ownChanges.has(dependency));
  if (changed) return `depends on ${changed}, which changed`;
  for (const dependency of dependencies) {
    if (seen.has(dependency)) continue;
    const further = reasonFor(dependency, seen);
    if (further) return `depends on ${dependency}, which ${further}`;
  }
  return null;
}

const lernaFilters = outside.length > 0 ? [] : ['--since', since, '--include-dependents'];
const chosen = lernaList(lernaFilters);
const head = git('rev-parse', '--short', since).stdout.trim();

console.log(
  `test:affected: packages changed since ${since} (${head}), with the packages that depend on them`,
);
if (outside.length > 0) {
  console.log(
    `  outside every package: ${outside.join(', ')}; that can change any package, so all of them run`,
  );
}
for (const { name } of chosen) {
  const reason = outside.length > 0 ? 'a change outside every package' : (reasonFor(name) ?? 'changed');
  console.log(`  ${name.padEnd(28)} ${reason}`);
}
const unseen = untracked.filter((file) => packageOf(file) && !affectsNothing(file));
if (unseen.length > 0) {
  console.log(`  not seen (untracked; git add them to count): ${unseen.join(', ')}`);
}
if (chosen.length === 0) console.log('  none: nothing to test');
const args = ['run', 'test', ...lernaFilters, '--concurrency', '1'];
if (chosen.length === 0 || values['dry-run']) {
  if (chosen.length > 0) console.log(`\nwould run: lerna ${args.join(' ')}`);
  process.exit(0);
}

// The browser suite runs against production builds and drives Chromium, as in `npm test`.
if (chosen.some(({ dir }) => dir === 'e2e')) {
  try {
    lernaEnv.CHROMIUM_PATH = ensureChromium();
  } catch (error) {
    if (!(error instanceof MissingPrerequisiteError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  console.log('\nThe browser suite is among them: building what changed since the last production build');
  await buildAll();
}

console.log(`\nlerna ${args.join(' ')}`);
const started = Date.now();
const lerna = spawn(lernaBin, args, { cwd: repoRoot, stdio: 'inherit', env: lernaEnv });
lerna.on('exit', (code, signal) => {
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const names = chosen.map(({ name }) => name.replace('@time-wallet/', '')).join(', ');
  console.log(`test:affected: ${code === 0 ? 'passed' : 'FAILED'} (${names}) in ${seconds} s`);
  process.exit(code ?? (signal ? 1 : 0));
});
