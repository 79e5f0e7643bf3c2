import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { freePort } from '@time-wallet/devkit/prerequisites';

const require = createRequire(import.meta.url);
const { repoRoot, remotes, shell, api } = require('@time-wallet/devkit/apps');
const { createSupervisor } = await import('@time-wallet/devkit/supervisor');

const frontEndApps = [shell, ...remotes];
const onLinux = process.platform === 'linux';

async function waitUntil(condition, what, attempts = 300) {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`gave up waiting until ${what}`);
}

/** The state letter of a process from /proc, or null once it is gone; a zombie has exited but is not yet reaped. */
function processState(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return null;
  }
}
const isRunning = (pid) => ![null, 'Z', 'X'].includes(processState(pid));

/** Child processes of `parentPid` (from /proc), with their command lines. */
function childrenOf(parentPid) {
  const children = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== parentPid || !isRunning(Number(entry))) continue;
      const commandLine = fs
        .readFileSync(`/proc/${entry}/cmdline`, 'utf8')
        .split('\0')
        .filter(Boolean)
        .join(' ');
      children.push({ pid: Number(entry), commandLine });
    } catch {
      // The process ended while it was being read.
    }
  }
  return children;
}

async function answers(url) {
  try {
    const response = await fetch(url);
    await response.arrayBuffer();
    return response.status;
  } catch {
    return null;
  }
}

/** Writes a small Node script for a supervised child and returns its path. */
function childScript(dir, name, source) {
  const file = path.join(dir, `${name}.mjs`);
  fs.writeFileSync(file, source);
  return file;
}

describe('supervisor: restarts what dies, stops what it started', () => {
  let workDir;
  before(() => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'time-wallet-supervisor-'));
  });
  after(() => fs.rmSync(workDir, { recursive: true, force: true }));

  it('restarts a child that exits, saying why, with a doubling delay', async () => {
    const counter = path.join(workDir, 'flaky-starts');
    const script = childScript(
      workDir,
      'flaky',
      `import fs from 'node:fs';
       const starts = Number(fs.existsSync(${JSON.stringify(counter)}) ? fs.readFileSync(${JSON.stringify(counter)}, 'utf8') : 0) + 1;
       fs.writeFileSync(${JSON.stringify(counter)}, String(starts));
       if (starts < 3) process.exit(3);
       process.send({ type: 'listening' });
       setInterval(() => {}, 1000);`,
    );
    const logged = [];
    const supervisor = createSupervisor({ restartDelayMs: 10, log: (line) => logged.push(line) });
    let startsWhenListening = 0;
    supervisor.start('flaky', {
      script,
      onMessage: (_message, starts) => (startsWhenListening = starts),
    });
    await waitUntil(() => startsWhenListening > 0, 'the flaky child stays up');
    assert.equal(startsWhenListening, 3);
    assert.deepEqual(logged, [
      '[flaky] exited with code 3; restarting in 0.01 s',
      '[flaky] exited with code 3; restarting in 0.02 s',
    ]);
    assert.equal(await supervisor.stop(), 0);
    assert.equal(logged.length, 2, 'a child stopped on purpose is not restarted');
  });

  it('gives up and stops every child when one keeps failing within the window', async () => {
    const steady = childScript(
      workDir,
      'steady',
      `process.send({ type: 'pid', pid: process.pid }); setInterval(() => {}, 1000);`,
    );
    const broken = childScript(workDir, 'broken', `process.exit(1);`);
    const logged = [];
    const supervisor = createSupervisor({
      restartDelayMs: 5,
      crashLimit: 3,
      log: (line) => logged.push(line),
    });
    let steadyPid = 0;
    supervisor.start('steady', { script: steady, onMessage: (message) => (steadyPid = message.pid) });
    await waitUntil(() => steadyPid > 0, 'the steady child is up');
    supervisor.start('broken', { script: broken });
    assert.equal(await supervisor.stopped, 1, 'the launcher exits with 1');
    assert.equal(logged.length, 3);
    assert.match(
      logged[2],
      /^\[broken\] exited with code 1, 3 times within 60 s; giving up and stopping everything$/,
    );
    assert.equal(isRunning(steadyPid), false, 'the steady child was stopped too');
  });

  it('forgets failures older than the window (fake clock)', async () => {
    const broken = childScript(
      workDir,
      'broken-slowly',
      `process.send({ type: 'started' }, () => process.exit(1));`,
    );
    let clock = 0;
    const supervisor = createSupervisor({
      restartDelayMs: 5,
      crashLimit: 2,
      crashWindowMs: 60_000,
      // Each failure is read a minute after the one before.
      now: () => (clock += 61_000),
      log: () => undefined,
    });
    let starts = 0;
    supervisor.start('broken', { script: broken, onMessage: (message, count) => (starts = count) });
    await waitUntil(() => starts >= 5, 'the child has been started five times');
    assert.equal(supervisor.stopping, false, 'one failure a minute never reaches the limit of two');
    assert.equal(await supervisor.stop(), 0);
  });

  it('kills a child that ignores SIGTERM once the grace time is over', async () => {
    const stubborn = childScript(
      workDir,
      'stubborn',
      `process.on('SIGTERM', () => {}); process.send({ type: 'pid', pid: process.pid }); setInterval(() => {}, 1000);`,
    );
    const logged = [];
    const supervisor = createSupervisor({ graceMs: 200, log: (line) => logged.push(line) });
    let pid = 0;
    supervisor.start('stubborn', { script: stubborn, onMessage: (message) => (pid = message.pid) });
    await waitUntil(() => pid > 0, 'the stubborn child is up');
    assert.equal(await supervisor.stop(), 0);
    assert.equal(isRunning(pid), false);
    assert.deepEqual(logged, ['stubborn still running after 0.2 s; killing']);
  });
});

/**
 * `npm start` itself, on free ports with the existing production builds (SKIP_BUILD=1): the API and six static
 * servers as supervised children. Needs `npm run build` first, as the whole browser suite does.
 */
describe('npm start: supervised children', { skip: !onLinux && 'reads /proc' }, () => {
  const launchers = [];

  before(() => {
    for (const app of frontEndApps) {
      assert.ok(fs.existsSync(path.join(repoRoot, app.dir, 'dist')), `${app.dir} is built (npm run build)`);
    }
    assert.ok(fs.existsSync(path.join(repoRoot, 'server/dist/server.js')), 'the API is built');
  });
  after(() => {
    for (const launcher of launchers) {
      if (launcher.process.exitCode === null) launcher.process.kill('SIGKILL');
      for (const pid of launcher.childPids) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
      fs.rmSync(launcher.dataDir, { recursive: true, force: true });
    }
  });

  async function launch() {
    const ports = {};
    for (const app of [...frontEndApps, api]) ports[app.portEnv] = String(await freePort('localhost'));
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'time-wallet-launcher-'));
    const child = spawn(process.execPath, ['shell/packages/devkit/bin/start.mjs'], {
      cwd: repoRoot,
      env: { ...process.env, ...ports, SKIP_BUILD: '1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const launcher = { process: child, dataDir, output: '', childPids: new Set() };
    launchers.push(launcher);
    child.stdout.on('data', (chunk) => (launcher.output += chunk));
    child.stderr.on('data', (chunk) => (launcher.output += chunk));
    launcher.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    await waitUntil(
      () => launcher.output.includes('Time Wallet is up') || child.exitCode !== null,
      'npm start says it is up',
      1200,
    );
    assert.match(launcher.output, /Time Wallet is up: open http:\/\/localhost:\d+/, launcher.output);
    launcher.urls = Object.fromEntries(
      frontEndApps.map((app) => [app.dir, `http://localhost:${ports[app.portEnv]}`]),
    );
    // One URL per child that answers 200 while it runs.
    launcher.pages = Object.fromEntries(
      frontEndApps.map((app) => [
        app.dir,
        `${launcher.urls[app.dir]}${app === shell ? '/' : '/remoteEntry.js'}`,
      ]),
    );
    launcher.pages.api = `http://localhost:${ports[api.portEnv]}/api/health`;
    launcher.children = () => {
      const children = childrenOf(child.pid);
      for (const { pid } of children) launcher.childPids.add(pid);
      return children;
    };
    return launcher;
  }

  const childServing = (launcher, dir) =>
    launcher.children().find(({ commandLine }) => commandLine.endsWith(` ${dir}`));

  it('restarts a static server that is killed, and stops every child on SIGTERM', async () => {
    const launcher = await launch();
    for (const app of frontEndApps) {
      assert.match(
        launcher.output,
        new RegExp(`  ${app.dir} +${launcher.urls[app.dir]}\\n`),
        'URLs as before',
      );
    }
    const children = launcher.children();
    assert.equal(children.length, 1 + frontEndApps.length, 'the API and one static server per app');
    for (const url of Object.values(launcher.pages)) assert.equal(await answers(url), 200, url);
    // The shell's server puts mfe-analytics's first frame, read from that remote's own server, into the page's HTML
    // (a first visit waits up to 300 ms for that read; on a busy machine a later one has it).
    await waitUntil(
      async () =>
        (await (await fetch(`${launcher.urls.shell}/app/analytics`)).text()).includes(
          'Average Productive Hours',
        ),
      "npm start serves the analytics page with its remote's first frame",
      50,
    );

    const wallet = childServing(launcher, 'mfe-wallet');
    assert.ok(wallet, 'mfe-wallet has its own process');
    process.kill(wallet.pid, 'SIGKILL');
    await waitUntil(
      () => launcher.output.includes('[mfe-wallet] exited with SIGKILL; restarting in 1 s'),
      'the launcher reports the dead child',
    );
    assert.equal(await answers(launcher.pages.shell), 200, 'the shell is not affected');
    await waitUntil(
      async () => (await answers(launcher.pages['mfe-wallet'])) === 200,
      'mfe-wallet serves again',
    );
    const restarted = childServing(launcher, 'mfe-wallet');
    assert.notEqual(restarted.pid, wallet.pid, 'in a new process');
    assert.equal(launcher.children().length, 1 + frontEndApps.length);

    launcher.process.kill('SIGTERM');
    assert.deepEqual(await launcher.exited, { code: 0, signal: null });
    const survivors = [...launcher.childPids].filter(isRunning);
    assert.deepEqual(survivors, [], 'no child outlives the launcher');
    for (const url of Object.values(launcher.pages))
      assert.equal(await answers(url), null, `${url} is closed`);
  });

  it('leaves no child running when the launcher itself is killed with SIGKILL', async () => {
    const launcher = await launch();
    const children = launcher.children();
    assert.equal(children.length, 1 + frontEndApps.length);
    launcher.process.kill('SIGKILL');
    await launcher.exited;
    await waitUntil(() => children.every(({ pid }) => !isRunning(pid)), 'every child has exited by itself');
    for (const url of Object.values(launcher.pages))
      assert.equal(await answers(url), null, `${url} is closed`);
  });
});
