// Runs the server's test files (all, or some: see below) from a compiled copy.
//
// Under tsx every test process paid about 1.3 s more to load the app than from JavaScript, and every parse worker it
// started loaded tsx again; 74 files in two suites made that minutes of `npm test`. So src/ and test/ are transpiled
// once per run with esbuild (what tsx itself uses, file by file, types stripped and nothing bundled) into
// dist-test/run-<pid>/, other files copied beside them, and node runs that copy. The copy keeps the server's layout,
// so every relative path in it holds; see docs/decisions/0006-server-tests-from-a-compiled-copy.md.
// `node --import tsx --test test/x.test.ts` still runs a file from its source.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ensurePushCertificate } from './support/push-certificate.mjs';

const testDir = path.dirname(fileURLToPath(import.meta.url));
const serverDir = path.dirname(testDir);
const copiesDir = path.join(serverDir, 'dist-test');

const filesUnder = (dir) =>
  readdirSync(path.join(serverDir, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(serverDir, path.join(entry.parentPath, entry.name)));

// Node 20's test runner does not expand `**` globs, so the test files are listed here: those whose path contains one
// of the arguments (all without one), less those after `--except` (`node test/run.mjs routes/ --except ics`).
const args = process.argv.slice(2);
const exceptAt = args.indexOf('--except');
const wanted = exceptAt < 0 ? args : args.slice(0, exceptAt);
const unwanted = exceptAt < 0 ? [] : args.slice(exceptAt + 1);
const testFiles = filesUnder('test')
  .filter((file) => file.endsWith('.test.ts'))
  .filter((file) => wanted.length === 0 || wanted.some((filter) => file.includes(filter)))
  .filter((file) => !unwanted.some((filter) => file.includes(filter)))
  .sort();

/** Whether the process that made a copy is gone, so its copy is left over from a run that was killed. */
function leftOver(copy) {
  const pid = Number(/^run-(\d+)$/.exec(copy)?.[1]);
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return error.code === 'ESRCH';
  }
}
function entriesOf(dir) {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
for (const copy of entriesOf(copiesDir)) {
  if (leftOver(copy)) rmSync(path.join(copiesDir, copy), { recursive: true, force: true });
}

const copyDir = path.join(copiesDir, `run-${process.pid}`);
const sources = [...filesUnder('src'), ...filesUnder('test')];
const transpiled = sources.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
let status = 1;
try {
  await build({
    entryPoints: transpiled.map((file) => path.join(serverDir, file)),
    outdir: copyDir,
    outbase: serverDir,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
  // Fixtures, plain-JavaScript helpers and the files src/ reads beside itself; package.json makes the copy ES modules.
  for (const file of [
    ...sources.filter((name) => !transpiled.includes(name)),
    'package.json',
    'session-defaults.json',
  ]) {
    mkdirSync(path.dirname(path.join(copyDir, file)), { recursive: true });
    copyFileSync(path.join(serverDir, file), path.join(copyDir, file));
  }

  // The fake push service's CA (test/support/push-service.ts): Node reads NODE_EXTRA_CA_CERTS only at process start.
  const pushCertificate = ensurePushCertificate();
  // Files at once: one more than the machine's cores (three on the 2-core CI machine). Many files spend seconds
  // waiting (on API processes they start, timers, PostgreSQL): with two at a time vmstat counted 17% of the CPU idle
  // over the PostgreSQL suite, with three 4%, and on CI the SQLite suite took 203 s instead of 240, the PostgreSQL one
  // 235 instead of 259. The probes that bound how long another request may be held count CPU time, not the clock
  // (security/series-cost.test.ts), so a busier machine does not fail them. SERVER_TEST_CONCURRENCY overrides.
  const concurrency = Number(process.env.SERVER_TEST_CONCURRENCY ?? os.availableParallelism() + 1);
  const result = spawnSync(
    process.execPath,
    // loopback-only: no test may connect anywhere but a loopback address (test/support/loopback-only.mjs).
    [
      '--enable-source-maps',
      '--import',
      './test/support/loopback-only.mjs',
      '--test',
      '--test-reporter=spec',
      `--test-concurrency=${concurrency}`,
      ...testFiles.map((file) => file.replace(/\.ts$/, '.js')),
    ],
    { stdio: 'inherit', cwd: copyDir, env: { ...process.env, NODE_EXTRA_CA_CERTS: pushCertificate.ca } },
  );
  status = result.status ?? 1;
} finally {
  rmSync(copyDir, { recursive: true, force: true });
}
process.exit(status);
