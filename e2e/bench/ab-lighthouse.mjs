// A/B of two front-end builds under Lighthouse (issue 33: a measure that can be read), in one run so that a busy
// spell on this shared machine falls on both. Both builds are served at once, each by its own stack (its API on the
// working tree's server/dist, its own database seeded alike), the second on ports shifted by B_PORT_SHIFT. Each round
// measures every page on A and on B back to back, A first on odd rounds and B first on even ones. Each run records,
// besides score/LCP/TBT/CLS, the main-thread long-task time by script (script-groups.mjs), normalised by the run's own
// Lighthouse benchmarkIndex. The report gives per page the median of A and of B, their spread (min-max) and A/B.
//
//   npm run bench -- --ab <git-ref> [--rounds 5] [--pages wallet,today,analytics,calendar] [--json <file>]
//   node e2e/bench/ab-lighthouse.mjs --ab <git-ref> [...]     (A's builds in place must be fresh: npm run build)
// A is the working tree's builds (the dist folders in place), B the builds of <git-ref>, made in a throwaway detached
// git worktree under the system's temporary folder with this checkout's toolchain (its node_modules linked, the
// workspace packages linked to the worktree's own sources), removed at the end, even on a failure or an interrupt.
//
//   node e2e/bench/ab-lighthouse.mjs --a <folder> [--b <folder>] [...]
// Folders holding a copy of each app's dist (<folder>/shell, <folder>/mfe-auth...; an app without one is served
// from its dist); B left out is the builds in place.
//
// Ports: every stack honours E2E_PORT_OFFSET (A at the offset, B at the offset + B_PORT_SHIFT); use one of 700 or
// more beside a test run (E2E_PORT_OFFSET=800 npm run bench -- --ab HEAD~1).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { median, runLighthouse } from './lighthouse.mjs';
import { seedUserWithData } from './lib-seed.mjs';
import { NORMALISED_HEADER, SCRIPT_GROUPS, normalised, originsOfStack } from './script-groups.mjs';

const require = createRequire(import.meta.url);
const { repoRoot, remotes, shell } = require('@time-wallet/devkit/apps');

export const AB_DEFAULTS = {
  rounds: 5,
  pages: ['wallet', 'today', 'analytics', 'calendar'],
  presets: ['mobile'],
};
/** B's stack runs on E2E_PORT_OFFSET + this (its API on 4100 + that, its apps on 3100-3105 + that). */
const B_PORT_SHIFT = 10;

/** The dist folders of a folder of copies (<folder>/<app dir>), by the name startStack's distDirs takes. */
function distDirsIn(folder) {
  if (!folder) return {};
  const dirs = {};
  for (const app of [shell, ...remotes]) {
    const dir = path.join(folder, app.dir);
    if (fs.existsSync(dir)) dirs[app.federationName] = dir;
  }
  return dirs;
}

/**
 * e2e/support/stack.mjs with its ports moved by `offset`: the module reads E2E_PORT_OFFSET once, when it is loaded,
 * so each offset gets its own instance of the module (a query in its URL).
 */
async function stackModuleAt(offset, tag) {
  const before = process.env.E2E_PORT_OFFSET;
  process.env.E2E_PORT_OFFSET = String(offset);
  try {
    return await import(`../support/stack.mjs?ab=${tag}`);
  } finally {
    if (before === undefined) delete process.env.E2E_PORT_OFFSET;
    else process.env.E2E_PORT_OFFSET = before;
  }
}

/**
 * Links each entry of the checkout's node_modules folder `from` into a new folder `to`: packages as absolute links,
 * so the worktree builds with the same dependencies; workspace packages (relative links, as npm makes them) as the
 * same relative links, so that they lead to the worktree's own sources, not the checkout's. Dot folders (caches)
 * other than .bin are left out: the worktree's tools write their own. Every link made is pushed onto `links`.
 */
function mirrorModules(from, to, links) {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (entry.name.startsWith('.') && entry.name !== '.bin') continue;
    const source = path.join(from, entry.name);
    const link = path.join(to, entry.name);
    if (entry.isSymbolicLink()) {
      const target = fs.readlinkSync(source);
      const resolved = path.resolve(from, target);
      const workspacePackage =
        !path.isAbsolute(target) &&
        resolved.startsWith(repoRoot + path.sep) &&
        !resolved.split(path.sep).includes('node_modules');
      fs.symlinkSync(workspacePackage ? target : resolved, link);
    } else if (entry.isDirectory() && entry.name.startsWith('@')) {
      mirrorModules(source, link, links);
      continue;
    } else {
      fs.symlinkSync(source, link);
    }
    links.push(link);
  }
}

/**
 * Builds every front-end app of commit `ref` in a throwaway worktree (see the header). Returns the commit, the
 * dist folders (startStack's distDirs), the build's seconds and cleanUp(), which removes the worktree.
 */
export async function buildRefInWorktree(ref, log = () => {}) {
  const git = (...args) =>
    execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const sha = git('rev-parse', '--verify', `${ref}^{commit}`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'time-wallet-ab-front-'));
  const tree = path.join(tmp, 'tree');
  const links = [];
  let added = false;
  let cleaned = false;
  const cleanUp = () => {
    if (cleaned) return;
    cleaned = true;
    // The links first, so that nothing below can reach the checkout's node_modules through them.
    for (const link of links) fs.rmSync(link, { force: true });
    if (added) {
      try {
        git('worktree', 'remove', '--force', tree);
      } catch (error) {
        log(`git worktree remove failed (${error.message.trim()}); removing ${tree} and pruning`);
        fs.rmSync(tree, { recursive: true, force: true });
        try {
          git('worktree', 'prune');
        } catch (pruneError) {
          log(`git worktree prune failed too: ${pruneError.message.trim()}`);
        }
      }
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  try {
    log(`B: worktree of ${ref} (${sha.slice(0, 7)}) at ${tree}`);
    git('worktree', 'add', '--detach', '--quiet', tree, sha);
    added = true;
    for (const folder of ['.', shell.dir, ...remotes.map((remote) => remote.dir), 'shared-ui', 'e2e']) {
      const modules = path.join(repoRoot, folder, 'node_modules');
      if (fs.existsSync(modules) && fs.existsSync(path.join(tree, folder))) {
        mirrorModules(modules, path.join(tree, folder, 'node_modules'), links);
      }
    }
    // The worktree's own build of every front-end app (its devkit, its webpack configs), as `npm run build` does it,
    // without the API: both sides are served by the working tree's API.
    const lib = pathToFileURL(path.join(tree, 'shell/packages/devkit/bin/lib.mjs')).href;
    const script = [
      `const { buildApp, frontEndApps } = await import(${JSON.stringify(lib)});`,
      'for (const app of frontEndApps) {',
      '  const seconds = await buildApp(app);',
      '  console.log(`B: ${app.dir} built in ${seconds.toFixed(1)} s`);',
      '}',
    ].join('\n');
    const started = Date.now();
    await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        cwd: tree,
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      child.once('error', reject);
      child.once('exit', (code, signal) =>
        code === 0 ? resolve() : reject(new Error(`building ${ref} failed (${signal ?? `exit ${code}`})`)),
      );
    });
    const buildSeconds = (Date.now() - started) / 1000;
    const distDirs = {};
    for (const app of [shell, ...remotes]) {
      const dir = path.join(tree, app.dir, 'dist');
      if (fs.existsSync(dir)) distDirs[app.federationName] = dir;
    }
    return { sha, distDirs, buildSeconds, cleanUp };
  } catch (error) {
    cleanUp();
    throw error;
  }
}

/**
 * Runs the rounds. `variants`: [{ key: 'A', label, distDirs }, { key: 'B', ... }]. Returns every run, as
 * { round, page, preset, key, sample } (sample: lighthouse.mjs's, null for an invalid run, with `problems`).
 */
export async function abRounds({ variants, rounds, pages, presets, log = () => {} }) {
  const base = Number(process.env.E2E_PORT_OFFSET ?? 0);
  const sides = [];
  const runs = [];
  try {
    for (const [index, variant] of variants.entries()) {
      const { startStack } = await stackModuleAt(base + index * B_PORT_SHIFT, variant.key);
      const stack = await startStack({ distDirs: variant.distDirs });
      const side = { ...variant, stack };
      sides.push(side);
      side.session = await seedUserWithData(stack.apiBaseUrl);
      side.scriptOrigins = originsOfStack(stack, variant.distDirs);
      log(`${variant.key} (${variant.label}) served from ${stack.shellUrl}`);
    }
    for (let round = 1; round <= rounds; round += 1) {
      // A first on odd rounds, B first on even ones.
      const order = round % 2 ? sides : [...sides].reverse();
      for (const page of pages) {
        for (const preset of presets) {
          for (const side of order) {
            const { rows } = await runLighthouse({
              shellUrl: side.stack.shellUrl,
              apiBaseUrl: side.stack.apiBaseUrl,
              session: side.session,
              runs: 1,
              pages: [page],
              presets: [preset],
              scriptOrigins: side.scriptOrigins,
              log: (line) => log(`round ${round}/${rounds} ${side.key}: ${line.replace(/^run 1\/1 /, '')}`),
            });
            const [row] = rows;
            runs.push({
              round,
              page,
              preset,
              key: side.key,
              sample: row.samples[0] ?? null,
              problems: row.problems,
            });
          }
        }
      }
    }
  } finally {
    await Promise.all(sides.map((side) => side.stack.stop()));
  }
  return runs;
}

/** The figures of a report: how each is read from a run's sample. */
function figuresOf(samples) {
  const norm = (pick) => (sample) => normalised(pick(sample), sample.benchmarkIndex);
  const figures = [
    { name: 'score', pick: (sample) => sample.score, digits: 0 },
    { name: 'LCP ms', pick: (sample) => sample.lcpMs, digits: 0 },
    { name: 'TBT ms', pick: (sample) => sample.tbtMs, digits: 0 },
    { name: 'TBT, normalised', pick: norm((sample) => sample.tbtMs), digits: 0 },
    { name: 'long tasks, all scripts, ms', pick: (sample) => sample.scripts?.longTaskTotalMs, digits: 0 },
    {
      name: 'long tasks, all scripts, normalised',
      pick: norm((sample) => sample.scripts?.longTaskTotalMs),
      digits: 0,
    },
  ];
  for (const group of SCRIPT_GROUPS) {
    if (!samples.some((sample) => sample.scripts?.longTaskMs[group])) continue;
    figures.push({
      name: `long tasks: ${group}, normalised`,
      pick: norm((sample) => (sample.scripts ? (sample.scripts.longTaskMs[group] ?? 0) : null)),
      digits: 0,
    });
  }
  const thread = (pick) => (sample) => (sample.scripts?.thread ? pick(sample.scripts.thread) : null);
  figures.push({ name: 'main-thread CPU time, all tasks, ms', pick: thread((t) => t.cpuTotalMs), digits: 0 });
  for (const group of SCRIPT_GROUPS) {
    if (!samples.some((sample) => sample.scripts?.thread?.cpuMs[group])) continue;
    figures.push({
      name: `CPU time: ${group}, ms`,
      pick: thread((t) => t.cpuMs[group] ?? 0),
      digits: 0,
    });
  }
  figures.push(
    { name: 'CPU time of long tasks, all scripts, ms', pick: thread((t) => t.cpuLongTaskTotalMs), digits: 0 },
    {
      name: "main thread's wall time / CPU time (1: it never waited for a CPU)",
      pick: thread((t) => (t.cpuTotalMs ? t.wallTotalMs / t.cpuTotalMs : null)),
      digits: 2,
    },
  );
  figures.push(
    {
      name: 'script evaluation + parse (scripts of 50 ms or more), normalised',
      pick: norm((sample) =>
        sample.scripts ? Object.values(sample.scripts.bootupMs).reduce((sum, ms) => sum + ms, 0) : null,
      ),
      digits: 0,
    },
    { name: "Lighthouse's benchmarkIndex", pick: (sample) => sample.benchmarkIndex, digits: 0 },
  );
  return figures;
}

/** Median, min, max and the spread (max - min as a share of the median) of some numbers. */
export function summary(values) {
  const numbers = values.filter((value) => typeof value === 'number' && !Number.isNaN(value));
  if (numbers.length === 0) return null;
  const middle = median(numbers);
  const min = Math.min(...numbers);
  const max = Math.max(...numbers);
  return { median: middle, min, max, spread: middle ? (max - min) / middle : null, n: numbers.length };
}

/** The report as markdown: a table per page and preset. */
export function abReport({ runs, variants, rounds, pages, presets, header = [] }) {
  const [a, b] = variants;
  const f = (value, digits = 0) => (value === null || value === undefined ? '-' : value.toFixed(digits));
  const pct = (value) => (value === null || value === undefined ? '-' : `${Math.round(value * 100)}%`);
  const lines = [
    `### Lighthouse A/B, ${rounds} rounds (A: ${a.label}; B: ${b.label})`,
    '',
    ...header,
    `Long tasks: ${NORMALISED_HEADER}.`,
    "CPU time: from the trace, each top-level task's thread time (not its wall time, which grows while the thread " +
      'waits for a CPU) x the simulated CPU slowdown, by the same attribution; not normalised. On this shared ' +
      "machine it is the figure to read: its spread is a fraction of TBT's.",
    'Spread = (max - min) / median over the rounds of one side. A/B = median A / median B; A/B by round = the ' +
      "median of each round's A / B.",
    '',
  ];
  for (const page of pages) {
    for (const preset of presets) {
      const of = (key) => runs.filter((run) => run.page === page && run.preset === preset && run.key === key);
      const valid = (key) => of(key).filter((run) => run.sample);
      const samples = [...valid(a.key), ...valid(b.key)].map((run) => run.sample);
      const invalid = [...of(a.key), ...of(b.key)].filter((run) => !run.sample);
      lines.push(
        `#### ${page} (${preset}): ${valid(a.key).length} valid runs of A, ${valid(b.key).length} of B` +
          (invalid.length
            ? ` (invalid: ${[...new Set(invalid.flatMap((run) => run.problems))].join('; ')})`
            : ''),
        '',
        '| figure | A median | A min-max | A spread | B median | B min-max | B spread | A/B | A/B by round |',
        '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      );
      for (const figure of figuresOf(samples)) {
        const one = (key) => summary(valid(key).map((run) => figure.pick(run.sample)));
        const sa = one(a.key);
        const sb = one(b.key);
        const range = (s) => (s ? `${f(s.min, figure.digits)}-${f(s.max, figure.digits)}` : '-');
        const ratio = sa && sb && sb.median ? (sa.median / sb.median).toFixed(2) : '-';
        // The median of each round's A/B: the two runs of a round are minutes apart at most.
        const byRound = median(
          valid(a.key).map((run) => {
            const other = valid(b.key).find((candidate) => candidate.round === run.round);
            const [x, y] = [figure.pick(run.sample), other && figure.pick(other.sample)];
            return typeof x === 'number' && typeof y === 'number' && y !== 0 ? x / y : null;
          }),
        );
        lines.push(
          `| ${figure.name} | ${f(sa?.median, figure.digits)} | ${range(sa)} | ${pct(sa?.spread)} | ` +
            `${f(sb?.median, figure.digits)} | ${range(sb)} | ${pct(sb?.spread)} | ${ratio} | ${f(byRound, 2)} |`,
        );
      }
      lines.push('');
    }
  }
  return lines.join('\n');
}

/** The whole A/B of the working tree against `ref` (or of two folders of builds): the report, printed and returned. */
export async function runAb({ ref, a, b, rounds, pages, presets, json, log = console.error }) {
  const started = Date.now();
  const git = (...args) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
  let variants;
  let built = null;
  const header = [];
  if (ref) {
    const { frontEndApps, isBuildFresh } = await import('@time-wallet/devkit/lib');
    const stale = frontEndApps.filter((app) => !isBuildFresh(app)).map((app) => app.dir);
    if (stale.length) {
      throw new Error(
        `A's builds are older than their sources (${stale.join(', ')}): npm run build -- --if-stale`,
      );
    }
    const changes = git('status', '--porcelain', '--untracked-files=no') !== '';
    built = await buildRefInWorktree(ref, log);
    const head = git('rev-parse', '--short', 'HEAD');
    variants = [
      {
        key: 'A',
        label: `working tree (HEAD ${head}${changes ? ' + uncommitted changes' : ''})`,
        distDirs: {},
      },
      { key: 'B', label: `${ref} (${built.sha.slice(0, 7)})`, distDirs: built.distDirs },
    ];
    header.push(`B built in a worktree in ${built.buildSeconds.toFixed(0)} s.`);
  } else {
    if (!a) throw new Error('--ab <git ref>, or --a <folder of dist copies> [--b <folder>], is required');
    variants = [
      { key: 'A', label: a, distDirs: distDirsIn(a) },
      { key: 'B', label: b ?? 'the builds in place', distDirs: distDirsIn(b) },
    ];
  }
  const onSignal = (signal) => {
    log(`${signal}: removing the A/B worktree`);
    built?.cleanUp();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const loadBefore = os.loadavg();
  let runs;
  try {
    runs = await abRounds({ variants, rounds, pages, presets, log });
  } finally {
    built?.cleanUp();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  const minutes = (Date.now() - started) / 60_000;
  const load = (values) => values.map((value) => value.toFixed(2)).join(' ');
  header.unshift(
    `Lighthouse 12, ${presets.join(' and ')} preset(s), one run per page and side in each round, the side going ` +
      `first alternating (A first on odd rounds); both sides' pages talk to the working tree's API. ` +
      `Took ${minutes.toFixed(1)} min on ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'CPU'}; load average ` +
      `${load(loadBefore)} before, ${load(os.loadavg())} after.`,
  );
  const report = abReport({ runs, variants, rounds, pages, presets, header });
  console.log(`\n${report}`);
  if (json) {
    fs.writeFileSync(
      json,
      `${JSON.stringify({ variants: variants.map(({ key, label }) => ({ key, label })), runs }, null, 2)}\n`,
    );
    log(`runs written to ${json}`);
  }
  return report;
}

/** The options of `--ab` shared by this file's command line and run.mjs's. */
export function abOptions(values) {
  const rounds = Number(values.rounds ?? AB_DEFAULTS.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be a positive integer');
  return {
    ref: values.ab,
    a: values.a,
    b: values.b,
    rounds,
    pages: values.pages ? values.pages.split(',') : AB_DEFAULTS.pages,
    presets: values.presets ? values.presets.split(',') : AB_DEFAULTS.presets,
    json: values.json,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      ab: { type: 'string' },
      a: { type: 'string' },
      b: { type: 'string' },
      rounds: { type: 'string' },
      pages: { type: 'string' },
      presets: { type: 'string' },
      json: { type: 'string' },
    },
  });
  await runAb(abOptions(values));
}
