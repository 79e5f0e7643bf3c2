import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { buildAll, repoRoot } from './lib.mjs';
import {
  ensureChromium,
  ensureOpenssl,
  makeScratchDir,
  MissingPrerequisiteError,
  startThrowawayPostgres,
} from './test-prerequisites.mjs';

/**
 * `npm test`: lint, typecheck, unit tests, the server suite on SQLite and again on PostgreSQL, then the browser suite
 * against fresh production builds. Chromium and PostgreSQL are found or installed first (a throw-away cluster unless
 * TEST_DATABASE_URL names one). Every stage runs even when an earlier one fails; the run ends with one line of totals.
 */
const only = process.argv.slice(2);
const wanted = (stage) => only.length === 0 || only.includes(stage);

const testEnv = {};
// The server and browser suites' temporary files go to one folder of this run's (memory-backed where there is room:
// see makeScratchDir), removed at the end with whatever a test left. The unit stage keeps the system's, where jest
// keeps its cache from one run to the next.
const scratch = makeScratchDir();
const scratchEnv = { TMPDIR: scratch.dir };
let stopPostgres = () => {};
let cleanedUp = false;
/**
 * The stages' processes, each the leader of its own process group (spawned detached), so that a run stopped by a
 * signal sent to it alone (a CI runner's cancel, `kill`) ends every process its stages started, grandchildren too,
 * not only itself: before, a stage's test runner and browsers ran on and wrote into the removed scratch folder.
 * A terminal's Ctrl-C now reaches only this process, which passes it on the same way.
 */
const stageGroups = new Set();
const stopStages = (signal) => {
  for (const pid of stageGroups) {
    try {
      process.kill(-pid, signal);
    } catch {
      // The group has ended.
    }
  }
};
// Synchronous, so that it also runs on 'exit', however the run ends: the folder may be memory.
const cleanUp = () => {
  if (cleanedUp) return;
  cleanedUp = true;
  stopStages('SIGTERM');
  stopPostgres();
  scratch.remove();
};
process.once('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    cleanUp();
    process.exit(1);
  });
}
try {
  if (wanted('e2e')) testEnv.CHROMIUM_PATH = ensureChromium();
  if (wanted('server') || wanted('server-pg')) ensureOpenssl();
  if ((wanted('server-pg') || wanted('e2e')) && !process.env.TEST_DATABASE_URL) {
    const postgres = await startThrowawayPostgres({ parent: scratch.dir });
    testEnv.TEST_DATABASE_URL = postgres.url;
    stopPostgres = postgres.stop;
  }
} catch (error) {
  cleanUp();
  if (!(error instanceof MissingPrerequisiteError)) throw error;
  console.error(error.message);
  process.exit(1);
}

/** Runs a command and resolves with its exit code and output; `quiet` keeps the output until it has finished. */
function runCapturing(command, args, env = {}, { quiet = false, cwd = repoRoot } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...testEnv, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    stageGroups.add(child.pid);
    let output = '';
    const relay = (stream, target) =>
      stream.on('data', (chunk) => {
        output += chunk;
        if (!quiet) target.write(chunk);
      });
    relay(child.stdout, process.stdout);
    relay(child.stderr, process.stderr);
    // 'close', not 'exit': the failure report is the child's last output, and 'exit' may come before it is read.
    child.on('close', (code) => {
      stageGroups.delete(child.pid);
      resolve({ code: code ?? 1, output });
    });
  });
}

/**
 * The node test runner's own account of what failed (its "failing tests" section), cut to a bound. A stage's output
 * can be long and the summary is what a CI log's tail keeps, so the reasons are printed again after it.
 */
const FAILURE_DIGEST_CHARS = 6000;
function nodeTestFailures(output) {
  const start = output.lastIndexOf('failing tests:');
  if (start < 0) return '';
  const section = output.slice(start).trimEnd();
  return section.length > FAILURE_DIGEST_CHARS ? `${section.slice(0, FAILURE_DIGEST_CHARS)}\n[...]` : section;
}

function nodeTestCounts(output) {
  const count = (label) => Number(output.match(new RegExp(`^\\S*\\s*${label} (\\d+)$`, 'm'))?.[1] ?? 0);
  return { passed: count('pass'), failed: count('fail') + count('cancelled') };
}

const results = [];
async function stage(name, work) {
  if (!wanted(name)) return;
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const { ok, passed = 0, failed = 0, failures = '', seconds } = await work();
  results.push({ name, ok, passed, failed, failures, seconds: seconds ?? (Date.now() - started) / 1000 });
}

// The three static checks are independent and each mostly one core's work, so on two cores they run side by side;
// each prints its output when it ends and reports its own time.
function staticCheck(args) {
  const started = Date.now();
  return runCapturing('npm', args, {}, { quiet: true }).then(({ code, output }) => ({
    code,
    output,
    seconds: (Date.now() - started) / 1000,
  }));
}
const checks = {
  lint: wanted('lint') && staticCheck(['run', 'lint', '--silent']),
  typecheck: wanted('typecheck') && staticCheck(['run', 'typecheck', '--silent']),
  // The client's API types must be what the server's schemas give now: a renamed field fails here, then in typecheck.
  'api-types': wanted('api-types') && staticCheck(['run', 'api:types', '--silent', '--', '--check']),
};
for (const [name, check] of Object.entries(checks)) {
  await stage(name, async () => {
    const { code, output, seconds } = await check;
    process.stdout.write(output);
    return { ok: code === 0, seconds };
  });
}

await stage('unit', async () => {
  const report = path.join(os.tmpdir(), `time-wallet-jest-${process.pid}.json`);
  // One worker per core: jest's default keeps one core for itself, which on two cores left one idle for two minutes.
  const workers = `--maxWorkers=${os.availableParallelism()}`;
  const { code } = await runCapturing('npx', ['jest', '--ci', workers, '--json', `--outputFile=${report}`]);
  const summary = fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, 'utf8')) : null;
  fs.rmSync(report, { force: true });
  return {
    ok: code === 0 && summary !== null,
    passed: summary?.numPassedTests ?? 0,
    failed: summary?.numFailedTests ?? 1,
  };
});

async function serverSuite(env, args = []) {
  const { code, output } = await runCapturing(
    'npm',
    ['test', '--workspace', 'server', '--silent', '--', ...args],
    env,
  );
  const counts = nodeTestCounts(output);
  return { ok: code === 0 && counts.passed > 0, ...counts, failures: nodeTestFailures(output) };
}
// One after the other: each suite already runs a file more than there are cores at a time (server/test/run.mjs), and
// when the two suites ran side by side a suite took three times as long and wall-clock bounds (a parse worker's time
// limit) ran out. An empty TEST_DATABASE_URL keeps the first run on SQLite files. The second leaves out what would run
// the same code again: the libraries' tests, which do not depend on the database (one app in them checks the password
// hash cost), and the files that never open PostgreSQL (the server process and SIGTERM files start theirs on SQLite
// whatever the environment says, the parse pool has no database).
const SAME_ON_EVERY_DATABASE = [
  'test/lib/',
  'test/server.test.ts',
  'reliability/sigterm',
  'plugins/ics-parse-pool',
];
await stage('server', () => serverSuite({ ...scratchEnv, TEST_DATABASE_URL: '' }));
await stage('server-pg', () => serverSuite(scratchEnv, ['--except', ...SAME_ON_EVERY_DATABASE]));

/**
 * The browser suite: E2E_WORKERS workers side by side, each on its own ports (E2E_PORT_OFFSET moves a whole run: see
 * e2e/support/stack.mjs), each taking the next file from one queue when its last one ends. Much of a browser test is
 * waiting (for a stack to start, a timer, a network cut), so on two cores they take far less than one after the
 * other. A queue, not fixed shards: a file's size says little about its time (the axe-core file is among the smallest
 * and runs longest), and two shards of equal size ended a minute and a half apart. The files that drive Chromium go
 * first, largest first, then those that drive none (servers, tools: 50 s in all), which fill the gap while the other
 * worker ends its last browser file. By size alone the axe-core file came last, and one worker ran 27 s after the other
 * had finished.
 */
const e2eDir = path.join(repoRoot, 'e2e');
const E2E_WORKER_PORT_SHIFT = 300;
const e2eWorkers = Number(process.env.E2E_WORKERS ?? 2);
// An E2E_PORT_OFFSET of the caller's moves every worker, so a second run can share the machine.
const e2eBaseOffset = Number(process.env.E2E_PORT_OFFSET ?? 0);
// How a browser file starts Chromium: through the suite's set-up, or on its own (e2e/support/suite.mjs, browser.mjs).
const DRIVES_CHROMIUM = /\b(browserSuite|launchBrowser)\(/;
function e2eFiles() {
  const testsDir = path.join(e2eDir, 'tests');
  return fs
    .readdirSync(testsDir)
    .filter((file) => file.endsWith('.test.mjs'))
    .map((file) => {
      const source = fs.readFileSync(path.join(testsDir, file), 'utf8');
      return { file: path.join('tests', file), size: source.length, browser: DRIVES_CHROMIUM.test(source) };
    })
    .sort((a, b) => Number(b.browser) - Number(a.browser) || b.size - a.size)
    .map(({ file }) => file);
}

await stage('e2e', async () => {
  try {
    console.log('Building what changed since the last production build');
    await buildAll();
  } catch (error) {
    console.error(error);
    return { ok: false, failed: 1 };
  }
  const queue = e2eFiles();
  const runs = [];
  await Promise.all(
    Array.from({ length: e2eWorkers }, async (_, worker) => {
      for (let file = queue.shift(); file; file = queue.shift()) {
        const started = Date.now();
        const run = await runCapturing(
          process.execPath,
          ['--test', '--test-reporter=spec', file],
          { ...scratchEnv, E2E_PORT_OFFSET: String(e2eBaseOffset + worker * E2E_WORKER_PORT_SHIFT) },
          { quiet: true, cwd: e2eDir },
        );
        // A file's output in one piece as it ends, so that a CI log shows progress and reads in order.
        console.log(
          `\n--- ${file} (worker ${worker + 1}, ${((Date.now() - started) / 1000).toFixed(1)} s) ---`,
        );
        process.stdout.write(run.output);
        runs.push(run);
      }
    }),
  );
  let ok = true;
  const counts = { passed: 0, failed: 0 };
  for (const { code, output } of runs) {
    const file = nodeTestCounts(output);
    ok &&= code === 0 && file.passed > 0;
    counts.passed += file.passed;
    counts.failed += file.failed;
  }
  const failures = runs.map(({ output }) => nodeTestFailures(output)).filter(Boolean);
  return { ok, ...counts, failures: failures.join('\n') };
});

cleanUp();

console.log('\n=== summary ===');
for (const { name, ok, passed, failed, seconds } of results) {
  const tally = passed || failed ? ` (${passed} passed, ${failed} failed)` : '';
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name.padEnd(10)} ${seconds.toFixed(1).padStart(6)} s${tally}`);
}
const passed = results.reduce((sum, result) => sum + result.passed, 0);
const failed = results.reduce((sum, result) => sum + result.failed + (result.ok || result.failed ? 0 : 1), 0);
for (const { name, failures } of results.filter((result) => result.failures)) {
  console.log(`\n=== why ${name} failed ===\n${failures}`);
}
console.log(`Tests: ${passed} passed, ${failed} failed`);
process.exit(results.every((result) => result.ok) ? 0 : 1);
