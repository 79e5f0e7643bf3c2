import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { compatibilityProblems } from './gate.mjs';
import { isBuildFresh, remotes, repoRoot, shell } from './lib.mjs';

/**
 * `npm test -w <package>` (each front-end package's `test` script): that package alone, as its team runs it. Lint
 * (ESLint and Prettier over its folder), typecheck, its jest project and, for a remote, the contract its build keeps
 * with the shell: every page the registry routes to is exposed, every shared module is a singleton the shell
 * provides in a version the build accepts, and the build ships no copy of one. Everything is derived from the registry
 * (apps.cjs) and the workspaces; the root `npm test` runs none of this (it lints, typechecks and runs jest once for
 * the whole tree). Usage: `node shell/packages/devkit/bin/test-package.mjs [<package folder>]` (default: the current
 * folder, where npm runs a package's script).
 */

const require = createRequire(import.meta.url);
const { libraries } = require('../registry.json');
const { createJestConfig } = require('../jest/preset.cjs');
const { sharedModules } = require('../webpack/shared-modules.cjs');

const devkitDir = path
  .relative(repoRoot, path.dirname(import.meta.dirname))
  .split(path.sep)
  .join('/');

/** Every workspace folder (root package.json's patterns; only a trailing `*` in a name is used there). */
function workspaceDirs() {
  const { workspaces } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  return workspaces.flatMap((pattern) => {
    if (!pattern.includes('*')) return [pattern];
    const parent = path.posix.dirname(pattern);
    const matches = new RegExp(`^${path.posix.basename(pattern).replaceAll('*', '.*')}$`);
    return fs
      .readdirSync(path.join(repoRoot, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && matches.test(entry.name))
      .map((entry) => path.posix.join(parent === '.' ? '' : parent, entry.name))
      .filter((dir) => fs.existsSync(path.join(repoRoot, dir, 'package.json')));
  });
}

function packageDirFrom(argument) {
  const dir = path
    .relative(repoRoot, path.resolve(argument ?? process.cwd()))
    .split(path.sep)
    .join('/');
  if (!workspaceDirs().includes(dir)) {
    throw new Error(`${argument ?? process.cwd()} is not a workspace package of ${repoRoot}`);
  }
  return dir;
}

function run(command, args, { cwd = repoRoot } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ ok: false, output: `${output}${error.message}\n` }));
    child.on('exit', (code) => resolve({ ok: code === 0, output }));
  });
}

async function runAll(steps) {
  let output = '';
  for (const [command, args, options] of steps) {
    const result = await run(command, args, options);
    output += result.output;
    if (!result.ok) return { ok: false, output };
  }
  return { ok: true, output };
}

const bin = (name) => path.join(repoRoot, 'node_modules', '.bin', name);

/** The package's own files: its folder without the workspaces nested in it (the shell holds the api and devkit). */
function lintStage(dir) {
  const nested = workspaceDirs().filter((other) => other.startsWith(`${dir}/`));
  return () =>
    runAll([
      [
        bin('eslint'),
        [dir, '--max-warnings=0', ...nested.flatMap((other) => ['--ignore-pattern', `${other}/**`])],
      ],
      [bin('prettier'), ['--check', dir, ...nested.map((other) => `!${other}/**`), '--log-level', 'warn']],
    ]);
}

function typecheckStage(dir) {
  return () => run('npm', ['run', 'typecheck', '--silent'], { cwd: path.join(repoRoot, dir) });
}

/** The package's jest project, picked from the root config by the name the shared preset gives it. */
function unitStage(dir) {
  const { displayName } = createJestConfig(path.join(repoRoot, dir));
  return async () => {
    const result = await run(bin('jest'), ['--ci', '--selectProjects', displayName]);
    // Under lerna (Nx) jest colours its output; the summary line is read without the colour codes.
    const plain = result.output.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
    return { ...result, note: plain.match(/^Tests:\s+(.*)$/m)?.[1] };
  };
}

/** What the shell built from this tree shares with its remotes: the same function its build uses. */
function shellShareScope() {
  const shared = sharedModules({ providesSingletons: true });
  return { shared: Object.entries(shared).map(([name, { version }]) => ({ name, version })) };
}

/**
 * The remote's production build (rebuilt first when older than its sources) against what the shell uses: the same
 * gate a deploy passes, plus what only a federated remote's own build can show (no bundled copy of a singleton, and
 * the version its manifest announces is its package's).
 */
function contractStage(remote) {
  return async () => {
    let output = '';
    if (!isBuildFresh(remote)) {
      // In a child process, so the build's own messages land in this stage's output.
      const build = await run(process.execPath, [
        path.join(import.meta.dirname, 'build.mjs'),
        '--only',
        remote.dir,
      ]);
      output += `Its build is older than its sources; rebuilding.\n${build.output}`;
      if (!build.ok) return { ok: false, output };
    }
    const distDir = path.join(repoRoot, remote.dir, 'dist');
    const manifest = JSON.parse(fs.readFileSync(path.join(distDir, 'mf-manifest.json'), 'utf8'));
    const shellManifest = shellShareScope();
    const problems = compatibilityProblems({ remote, remoteManifest: manifest, shellManifest });
    for (const shared of manifest.shared ?? []) {
      if (!shellManifest.shared.some(({ name }) => name === shared.name)) {
        problems.push(`${shared.name}: shared by the build, but not by the shell`);
      }
      if (shared.assets?.js?.sync?.length) problems.push(`${shared.name}: the build ships its own copy`);
    }
    const { remoteEntry, buildInfo } = manifest.metaData ?? {};
    if (!remoteEntry || !fs.existsSync(path.join(distDir, remoteEntry.path ?? '', remoteEntry.name))) {
      problems.push('the manifest names no remote entry that the build holds');
    }
    const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, remote.dir, 'package.json'), 'utf8'));
    if (buildInfo?.buildVersion !== version) {
      problems.push(`the manifest announces version ${buildInfo?.buildVersion}, the package is ${version}`);
    }
    const pages = remote.pages.map((page) => page.expose).join(', ');
    output += problems.length
      ? problems.map((problem) => `${remote.dir}: ${problem}\n`).join('')
      : `${manifest.name} ${version} exposes ${pages}; shares only the shell's singletons\n`;
    return { ok: problems.length === 0, output };
  };
}

function stagesFor(dir) {
  const remote = remotes.find((candidate) => candidate.dir === dir);
  if (remote) {
    return [
      ['typecheck', typecheckStage(dir)],
      ['unit', unitStage(dir)],
      ['lint', lintStage(dir)],
      ['contract', contractStage(remote)],
    ];
  }
  if (dir === shell.dir || libraries.includes(dir)) {
    return [
      ['typecheck', typecheckStage(dir)],
      ['unit', unitStage(dir)],
      ['lint', lintStage(dir)],
    ];
  }
  // The devkit is JavaScript run by Node: nothing to typecheck, and its behaviour is what every other package's
  // tests (and the browser suite) exercise.
  if (dir === devkitDir) return [['lint', lintStage(dir)]];
  throw new Error(`${dir} has a test runner of its own; see its package.json`);
}

/** Two stages at a time (the machine's two cores); each one's output is printed whole when it ends. */
async function runStages(stages) {
  const results = [];
  const queue = [...stages];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [name, work] = next;
      const started = Date.now();
      const result = await work().catch((error) => ({ ok: false, output: `${error.stack ?? error}\n` }));
      const seconds = (Date.now() - started) / 1000;
      console.log(`\n=== ${name} (${result.ok ? 'ok' : 'FAILED'}, ${seconds.toFixed(1)} s) ===`);
      if (result.output.trim())
        process.stdout.write(result.output.endsWith('\n') ? result.output : `${result.output}\n`);
      results.push({ name, seconds, ...result });
    }
  };
  await Promise.all([worker(), worker()]);
  return stages.map(([name]) => results.find((result) => result.name === name));
}

const dir = packageDirFrom(process.argv[2]);
const started = Date.now();
const results = await runStages(stagesFor(dir));
console.log(`\n=== ${dir} ===`);
for (const { name, ok, seconds, note } of results) {
  console.log(
    `${ok ? 'ok  ' : 'FAIL'} ${name.padEnd(10)} ${seconds.toFixed(1).padStart(5)} s${note ? `  ${note}` : ''}`,
  );
}
const failed = results.filter((result) => !result.ok).map((result) => result.name);
const total = `${((Date.now() - started) / 1000).toFixed(1)} s`;
console.log(
  failed.length === 0
    ? `${dir}: all ${results.length} stages passed in ${total}`
    : `${dir}: ${failed.join(', ')} failed (${results.length - failed.length} of ${results.length} stages passed) in ${total}`,
);
process.exit(failed.length === 0 ? 0 : 1);
